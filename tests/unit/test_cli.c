/* Size parsing and the option table (pure parts; the binary's exit codes
 * are tested in test_cli_cases.c). */
#include "../harness.h"

#include "cli.h"
#include "frame/registry.h"

#include <errno.h>
#include <string.h>

TEST(sizes_parse_with_binary_and_si_suffixes)
{
	static const struct {
		const char *s;
		size_t v;
	} ok[] = {
		{"1", 1}, {"64", 64}, {"64B", 64}, {"4K", 4096}, {"4KiB", 4096}, {"4Ki", 4096},
		{"4KB", 4000}, {"1M", 1u << 20}, {"512MiB", 512u << 20}, {"1G", 1u << 30},
		{"2GB", 2000000000u}, {"1T", (size_t)1 << 40},
	};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		size_t v = 0;
		int rc = cli_parse_size(ok[i].s, &v);

		CHECK(rc == 0 && v == ok[i].v, "'%s' -> rc %d, %zu", ok[i].s, rc, v);
	}
}

TEST(bad_sizes_are_refused_by_class)
{
	static const struct {
		const char *s;
		int rc;
	} bad[] = {
		{"12q", -EINVAL}, {"", -EINVAL}, {"G", -EINVAL}, {"1e30G", -EINVAL}, {"1.5G", -EINVAL},
		{"1GG", -EINVAL}, {"1iB", -EINVAL}, {"-1G", -EDOM}, {"0", -EDOM}, {"0K", -EDOM},
		{"99999999999999999999", -ERANGE}, {"16777216T", -ERANGE}, {"18446744073709551615K", -ERANGE},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t v;
		int rc = cli_parse_size(bad[i].s, &v);

		CHECK(rc == bad[i].rc, "'%s' -> %d, expected %d", bad[i].s, rc, bad[i].rc);
	}
}

TEST(options_parse_in_both_forms)
{
	char a0[] = "mlpscope", a1[] = "mlp", a2[] = "--size=256M", a3[] = "--max-lanes", a4[] = "12",
	     a5[] = "--pages", a6[] = "both", a7[] = "--quick";
	char *argv[] = {a0, a1, a2, a3, a4, a5, a6, a7, NULL};
	struct options o;
	char err[CLI_ERR_LEN];

	CHECK(cli_parse(8, argv, &o, err, sizeof(err)) == 0, "%s", err);
	CHECK(o.command == registry_find("mlp"), "command");
	CHECK(options_given(&o, "size") && options_given(&o, "size")->number == (256u << 20), "size");
	CHECK(options_given(&o, "max-lanes") && options_given(&o, "max-lanes")->number == 12, "max-lanes");
	CHECK(options_given(&o, "pages") && options_given(&o, "pages")->number == PAGES_CHOICE_BOTH && o.quick,
	      "pages/quick");
	CHECK(!options_given(&o, "repeat"), "repeat is mlp's default, not the parser's");
}

TEST(help_lists_every_option)
{
	char buf[8192] = {0};
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");
	const char *names[] = {"--size", "--spacing", "--pages", "--max-lanes", "--repeat", "--trials",
			       "--accesses", "--seed", "--cpu", "--json", "--quick", "--help", "--version"};

	CHECK(f, "fmemopen");
	cli_print_help(f, NULL);
	fclose(f);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		CHECK(strstr(buf, names[i]), "help lacks %s", names[i]);
}
