/* app bzip2's instruction counts as text and JSON. */
#include "report/app_bzip2_instructions_out.h"

void app_bzip2_instructions_write_text(const struct app_bzip2_instructions *r, FILE *f)
{
	if (!r->ran) {
		if (r->why[0])
			fprintf(f, "  instructions: not counted: %s\n", r->why);
		return;
	}
	fprintf(f, "  instructions (%s; mlpbunzip2 -c -n1 on %s; the same every run of this binary):\n", r->tool,
		r->input);
	fprintf(f, "    per BWT row (%llu rows):", (unsigned long long)r->rows);
	for (unsigned s = 0; s < APP_BZ2_INSTR_OTHER; s++)
		fprintf(f, " %s %.1f%s", app_bzip2_instr_stage_names[s], (double)r->stage[s] / (double)r->rows,
			s + 1 < APP_BZ2_INSTR_OTHER ? "," : "");
	fprintf(f, " = %.1f the decoder; %.1f per output byte\n", r->decoder_per_row, r->decoder_per_byte);
	fprintf(f, "    the whole process %.1f M instructions, %.1f M of them start, I/O and libc (counted in %.1f s)\n",
		(double)r->total * 1e-6, (double)r->stage[APP_BZ2_INSTR_OTHER] * 1e-6, r->seconds);
}

void app_bzip2_instructions_write_json(const struct app_bzip2_instructions *r, struct jsonw *w, const char *key)
{
	jsonw_object_begin(w, key);
	jsonw_bool(w, "counted", r->ran);
	jsonw_string_or_null(w, "why_not", !r->ran, r->why);
	jsonw_string_or_null(w, "tool", r->ran, r->tool);
	jsonw_string_or_null(w, "input", r->ran, r->input);
	jsonw_uint_or_null(w, "rows", r->ran, r->rows);
	jsonw_uint_or_null(w, "output_bytes", r->ran, r->output_bytes);
	jsonw_uint_or_null(w, "total", r->ran, r->total);
	jsonw_object_begin(w, "stages");
	for (unsigned s = 0; s < APP_BZ2_INSTR_STAGES; s++)
		jsonw_uint_or_null(w, app_bzip2_instr_stage_names[s], r->ran, r->stage[s]);
	jsonw_object_end(w);
	jsonw_double_or_null(w, "decoder_per_row", r->ran, r->decoder_per_row);
	jsonw_double_or_null(w, "decoder_per_output_byte", r->ran, r->decoder_per_byte);
	jsonw_double(w, "seconds", r->seconds);
	jsonw_object_end(w);
}
