/*
 * The latency section's JSON keys, each spelled once: the writer
 * (report/latency_out.c) writes them and the view (report/latency_view.c)
 * looks them up by the same names, so a key renamed here is renamed for
 * both, and a stored result is read by the keys it was written with
 * (docs/OUTPUT.md describes them). One block per JSON object, in the order
 * the writer writes its members. A path into a document is "latency." and
 * these ("latency." LATENCY_KEY_POINTS). Last, the names of the headline
 * figures the view gives. Names only: no table, no type.
 */
#ifndef MLPSCOPE_REPORT_LATENCY_KEYS_H
#define MLPSCOPE_REPORT_LATENCY_KEYS_H

/* The "latency" object itself. */
#define LATENCY_KEY_POINTS                       "points"
#define LATENCY_KEY_LEVELS_DETECTED              "levels_detected"
#define LATENCY_KEY_REPORTED_WITHOUT_PLATEAU     "reported_without_plateau"
#define LATENCY_KEY_KNEES                        "knees"
#define LATENCY_KEY_STEADY_CHECKED               "steady_checked"
#define LATENCY_KEY_STEADY_FAILED                "steady_failed"
#define LATENCY_KEY_WARM_REFERENCES              "warm_references"
#define LATENCY_KEY_WARM_REFERENCES_DISAGREE     "warm_references_disagree"
#define LATENCY_KEY_PREFETCH_RATIO_AT_MAX        "prefetch_ratio_at_max"
#define LATENCY_KEY_CHASE_NS_AT_MAX              "chase_ns_at_max"
#define LATENCY_KEY_STREAM_NS_AT_MAX             "stream_ns_at_max"
#define LATENCY_KEY_SMALL_CHASE_NS_AT_MAX        "small_chase_ns_at_max"
#define LATENCY_KEY_TRANSLATION_NS_AT_MAX        "translation_ns_at_max"
#define LATENCY_KEY_WHOLE_WALK_NS_AT_MAX         "whole_walk_ns_at_max"
#define LATENCY_KEY_WHOLE_WALK_LOADS             "whole_walk_loads"
#define LATENCY_KEY_WHOLE_WALK_REGIONS_NS        "whole_walk_regions_ns"
#define LATENCY_KEY_NON_MONOTONIC                "non_monotonic"
#define LATENCY_KEY_NON_MONOTONIC_FOUND          "non_monotonic_found"
#define LATENCY_KEY_NON_MONOTONIC_FOUND_IN_SWEEP "non_monotonic_found_in_sweep"
#define LATENCY_KEY_RETIMED_POINTS               "retimed_points"
#define LATENCY_KEY_RETIME_SKIPPED               "retime_skipped"
#define LATENCY_KEY_PLACEMENT_CHECKED            "placement_checked"
#define LATENCY_KEY_PLACEMENT_SKIPPED            "placement_skipped"
#define LATENCY_KEY_PLACEMENT_SENSITIVE          "placement_sensitive"
#define LATENCY_KEY_PERCENTILES                  "percentiles"
#define LATENCY_KEY_MAX_BYTES                    "max_bytes"
#define LATENCY_KEY_LINE_BYTES                   "line_bytes"
#define LATENCY_KEY_TRIALS                       "trials"
#define LATENCY_KEY_NOISE_FLOOR_PCT              "noise_floor_pct"
#define LATENCY_KEY_LEVEL_TOLERANCE_PCT          "level_tolerance_pct"
#define LATENCY_KEY_REGION_LOADS                 "region_loads"
#define LATENCY_KEY_PASSES                       "passes"
#define LATENCY_KEY_WARM_WALKS                   "warm_walks"
#define LATENCY_KEY_WARM_MAX_BYTES               "warm_max_bytes"
#define LATENCY_KEY_REFERENCE_WALKS              "reference_walks"
#define LATENCY_KEY_ARENA_HUGE_BYTES             "arena_huge_bytes"
#define LATENCY_KEY_ARENA_HUGE_OBTAINED_BYTES    "arena_huge_obtained_bytes"
#define LATENCY_KEY_ARENA_SMALL_BYTES            "arena_small_bytes"
#define LATENCY_KEY_ARENA_SMALL_OBTAINED_HUGE_BYTES "arena_small_obtained_huge_bytes"
#define LATENCY_KEY_COLLAPSE_ERRNO               "collapse_errno"
#define LATENCY_KEY_CORE_MHZ_MIN                 "core_mhz_min"
#define LATENCY_KEY_CORE_MHZ_MAX                 "core_mhz_max"
#define LATENCY_KEY_CORE_CLOCK_STEADY            "core_clock_steady"
#define LATENCY_KEY_SEED                         "seed"
#define LATENCY_KEY_SETUP_SECONDS                "setup_seconds"
#define LATENCY_KEY_SWEEP_SECONDS                "sweep_seconds"

/* Each of latency.points[]: one working set on one page kind. */
#define LATENCY_POINT_KEY_SIZE_BYTES                   "size_bytes"
#define LATENCY_POINT_KEY_PAGES                        "pages"
#define LATENCY_POINT_KEY_HUGE_FRACTION_OBTAINED       "huge_fraction_obtained"
#define LATENCY_POINT_KEY_CHASE_NS                     "chase_ns"
#define LATENCY_POINT_KEY_STREAM_NS                    "stream_ns"
#define LATENCY_POINT_KEY_PREFETCH_RATIO               "prefetch_ratio"
#define LATENCY_POINT_KEY_CHASE_CYCLES_MIN             "chase_cycles_min"
#define LATENCY_POINT_KEY_CHASE_CYCLES_MAX             "chase_cycles_max"
#define LATENCY_POINT_KEY_LAYOUT_OK                    "layout_ok"
#define LATENCY_POINT_KEY_CHASE_DISTINCT_LINES_WALKED  "chase_distinct_lines_walked"
#define LATENCY_POINT_KEY_STREAM_DISTINCT_LINES_WALKED "stream_distinct_lines_walked"
#define LATENCY_POINT_KEY_EXPECTED_LINES               "expected_lines"
#define LATENCY_POINT_KEY_PERM_HASH                    "perm_hash"
#define LATENCY_POINT_KEY_CHASE_LOADS_PER_REGION       "chase_loads_per_region"
#define LATENCY_POINT_KEY_STREAM_LOADS_PER_REGION      "stream_loads_per_region"
#define LATENCY_POINT_KEY_WARMED                       "warmed"
#define LATENCY_POINT_KEY_SETTLE_LOADS                 "settle_loads"
#define LATENCY_POINT_KEY_LEAD_IN_LOADS                "lead_in_loads"
#define LATENCY_POINT_KEY_STEADY_LONG_NS               "steady_long_ns"
#define LATENCY_POINT_KEY_STEADY_DIFF_PCT              "steady_diff_pct"
#define LATENCY_POINT_KEY_STEADY_OK                    "steady_ok"
#define LATENCY_POINT_KEY_TRIALS                       "trials"
#define LATENCY_POINT_KEY_CHASE_TRIALS_NS              "chase_trials_ns"
#define LATENCY_POINT_KEY_STREAM_TRIALS_NS             "stream_trials_ns"
#define LATENCY_POINT_KEY_SWEEP_CHASE_NS               "sweep_chase_ns"
#define LATENCY_POINT_KEY_RETIME_TRIALS_NS             "retime_trials_ns"
#define LATENCY_POINT_KEY_PLACEMENT                    "placement"

/* A point's "placement" object: the same chain timed on two allocations. */
#define LATENCY_PLACEMENT_KEY_ARENA_NS                 "arena_ns"
#define LATENCY_PLACEMENT_KEY_OWN_ALLOCATION_NS        "own_allocation_ns"
#define LATENCY_PLACEMENT_KEY_MIN_NS                   "min_ns"
#define LATENCY_PLACEMENT_KEY_SPREAD_PCT               "spread_pct"
#define LATENCY_PLACEMENT_KEY_PLACEMENT_SENSITIVE      "placement_sensitive"
#define LATENCY_PLACEMENT_KEY_ARENA_TRIALS_NS          "arena_trials_ns"
#define LATENCY_PLACEMENT_KEY_OWN_ALLOCATION_TRIALS_NS "own_allocation_trials_ns"

/* Each of latency.levels_detected[]: a plateau of the chase curve. */
#define LATENCY_LEVEL_KEY_LEVEL                   "level"
#define LATENCY_LEVEL_KEY_SIZE_BYTES              "size_bytes"
#define LATENCY_LEVEL_KEY_FIRST_BYTES             "first_bytes"
#define LATENCY_LEVEL_KEY_CAPACITY_BYTES          "capacity_bytes"
#define LATENCY_LEVEL_KEY_LATENCY_NS              "latency_ns"
#define LATENCY_LEVEL_KEY_POINTS                  "points"
#define LATENCY_LEVEL_KEY_REACHES_MAX             "reaches_max"
#define LATENCY_LEVEL_KEY_REPORTED_BYTES          "reported_bytes"
#define LATENCY_LEVEL_KEY_CACHE_LEVEL             "cache_level"
#define LATENCY_LEVEL_KEY_DISAGREES_WITH_REPORTED "disagrees_with_reported"
#define LATENCY_LEVEL_KEY_TLB_STEP                "tlb_step"

/* Each of latency.reported_without_plateau[]: an OS cache with no plateau. */
#define LATENCY_MISSING_KEY_REPORTED_BYTES "reported_bytes"
#define LATENCY_MISSING_KEY_CACHE_LEVEL    "cache_level"
#define LATENCY_MISSING_KEY_AFTER_BYTES    "after_bytes"
#define LATENCY_MISSING_KEY_BEFORE_BYTES   "before_bytes"
#define LATENCY_MISSING_KEY_AFTER_NS       "after_ns"
#define LATENCY_MISSING_KEY_BEFORE_NS      "before_ns"

/* Each of latency.knees[]: where the curve steps up. */
#define LATENCY_KNEE_KEY_FROM_BYTES      "from_bytes"
#define LATENCY_KNEE_KEY_TO_BYTES        "to_bytes"
#define LATENCY_KNEE_KEY_FROM_NS         "from_ns"
#define LATENCY_KNEE_KEY_TO_NS           "to_ns"
#define LATENCY_KNEE_KEY_KIND            "kind"
#define LATENCY_KNEE_KEY_TLB_REACH_BYTES "tlb_reach_bytes"
#define LATENCY_KNEE_KEY_TLB_STEP_NS     "tlb_step_ns"

/* Each of latency.warm_references[]: a level's middle walked back to back. */
#define LATENCY_REFERENCE_KEY_LEVEL          "level"
#define LATENCY_REFERENCE_KEY_SIZE_BYTES     "size_bytes"
#define LATENCY_REFERENCE_KEY_CURVE_NS       "curve_ns"
#define LATENCY_REFERENCE_KEY_WARM_NS        "warm_ns"
#define LATENCY_REFERENCE_KEY_LOADS_PER_WALK "loads_per_walk"
#define LATENCY_REFERENCE_KEY_DIFF_PCT       "diff_pct"
#define LATENCY_REFERENCE_KEY_AGREES         "agrees"

/* Each of latency.non_monotonic[]: a point below a smaller working set. */
#define LATENCY_FALL_KEY_SIZE_BYTES       "size_bytes"
#define LATENCY_FALL_KEY_LATENCY_NS       "latency_ns"
#define LATENCY_FALL_KEY_BELOW_SIZE_BYTES "below_size_bytes"
#define LATENCY_FALL_KEY_BELOW_LATENCY_NS "below_latency_ns"
#define LATENCY_FALL_KEY_FALL_PCT         "fall_pct"

/* Each of latency.percentiles[]: the per-region times at a chosen size. */
#define LATENCY_PERCENTILE_KEY_SIZE_BYTES "size_bytes"
#define LATENCY_PERCENTILE_KEY_LEVEL      "level"
#define LATENCY_PERCENTILE_KEY_REGIONS    "regions"
#define LATENCY_PERCENTILE_KEY_MIN_NS     "min_ns"
#define LATENCY_PERCENTILE_KEY_P50_NS     "p50_ns"
#define LATENCY_PERCENTILE_KEY_P90_NS     "p90_ns"
#define LATENCY_PERCENTILE_KEY_P99_NS     "p99_ns"
#define LATENCY_PERCENTILE_KEY_MAX_NS     "max_ns"
#define LATENCY_PERCENTILE_KEY_REGION_NS  "region_ns"

/* The headline figures the view names (the summary's keys, which the fleet
 * table and the Prometheus families read back): per cache level from a
 * format (n from 1), the rest as they are. */
#define LATENCY_FIGURE_LEVEL_NS                 "l%d_latency_ns"
#define LATENCY_FIGURE_LEVEL_CYCLES             "l%d_latency_cycles"
#define LATENCY_FIGURE_MEMORY_LATENCY_NS        "memory_latency_ns"
#define LATENCY_FIGURE_MEMORY_LATENCY_CYCLES    "memory_latency_cycles"
#define LATENCY_FIGURE_MEMORY_SMALL_PAGES_NS    "memory_latency_small_pages_ns"
#define LATENCY_FIGURE_TRANSLATION_NS           "translation_ns"
#define LATENCY_FIGURE_PREFETCH_RATIO           "prefetch_ratio"

#endif
