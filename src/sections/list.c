/*
 * The rows of sections/list.h as the framework's registry[] (declared in
 * frame/registry.h), in report order. The table is filled here, beside the
 * rows, so the framework below loops over every section without naming
 * one: adding a section touches its own file and list.h, never frame/.
 */
#include "frame/registry.h"

#define SECTION(name) extern const struct section section_##name;
#include "sections/list.h"
#undef SECTION

const struct section *const registry[] = {
#define SECTION(name) &section_##name,
#include "sections/list.h"
#undef SECTION
};

const size_t registry_count = sizeof(registry) / sizeof(registry[0]);
