/*
 * The window section's JSON keys, each spelled once: the writer
 * (report/window_out.c) writes them and the view (report/window_view.c)
 * looks them up by the same names, so a key renamed here is renamed for
 * both (docs/OUTPUT.md describes them). One block per JSON object, in the
 * order the writer writes its members. A path into a document is "window."
 * and these ("window." WINDOW_KEY_FILLERS). Names only: no table, no type.
 */
#ifndef MLPSCOPE_REPORT_WINDOW_KEYS_H
#define MLPSCOPE_REPORT_WINDOW_KEYS_H

/* The "window" object itself. */
#define WINDOW_KEY_ISA                 "isa"
#define WINDOW_KEY_WORKING_SET_BYTES   "working_set_bytes"
#define WINDOW_KEY_TOTAL_BYTES         "total_bytes"
#define WINDOW_KEY_HUGE_BYTES_OBTAINED "huge_bytes_obtained"
#define WINDOW_KEY_LAYOUT_OK           "layout_ok"
#define WINDOW_KEY_PERM_SEED           "perm_seed"
#define WINDOW_KEY_PERM_HASH           "perm_hash"
#define WINDOW_KEY_ITERS_PER_REGION    "iters_per_region"
#define WINDOW_KEY_TRIALS_PER_PHASE    "trials_per_phase"
#define WINDOW_KEY_NOISE_FLOOR_PCT     "noise_floor_pct"
#define WINDOW_KEY_SETUP_SECONDS       "setup_seconds"
#define WINDOW_KEY_SWEEP_SECONDS       "sweep_seconds"
#define WINDOW_KEY_NOISE_FLOOR_SOURCE  "noise_floor_source"
#define WINDOW_KEY_WARNING             "warning"
#define WINDOW_KEY_FILLERS             "fillers"
#define WINDOW_KEY_REPEAT_SECONDS      "repeat_seconds"
#define WINDOW_KEY_ROB_OVER_RUN        "rob_over_run"
#define WINDOW_KEY_MISS_BUFFER         "miss_buffer"
#define WINDOW_KEY_SUMMARY             "summary"
#define WINDOW_KEY_RAMPS               "ramps"
#define WINDOW_KEY_CAVEATS             "caveats"

/* Each of window.fillers[]: one filler's sweep, its step and its fit. */
#define WINDOW_FILLER_KEY_FILLER              "filler"
#define WINDOW_FILLER_KEY_STRUCTURE           "structure"
#define WINDOW_FILLER_KEY_POINTS              "points"
#define WINDOW_FILLER_KEY_STEP_N_FITS         "step_n_fits"
#define WINDOW_FILLER_KEY_STEP_N_FAILS        "step_n_fails"
#define WINDOW_FILLER_KEY_CAPACITY            "capacity"
#define WINDOW_FILLER_KEY_CAPACITY_LOW        "capacity_low"
#define WINDOW_FILLER_KEY_CAPACITY_HIGH       "capacity_high"
#define WINDOW_FILLER_KEY_RAMP_ONSET_N        "ramp_onset_n"
#define WINDOW_FILLER_KEY_FLAT_NS_PER_ITER    "flat_ns_per_iter"
#define WINDOW_FILLER_KEY_JUMP_RATIO          "jump_ratio"
#define WINDOW_FILLER_KEY_RMS_REL_RESIDUAL    "rms_rel_residual"
#define WINDOW_FILLER_KEY_SECONDS             "seconds"
#define WINDOW_FILLER_KEY_NOTE                "note"
#define WINDOW_FILLER_KEY_TRANSITION_N        "transition_n"
#define WINDOW_FILLER_KEY_REPEAT              "repeat"
#define WINDOW_FILLER_KEY_WHOLE_CAPACITY      "whole_capacity"
#define WINDOW_FILLER_KEY_WHOLE_CAPACITY_LOW  "whole_capacity_low"
#define WINDOW_FILLER_KEY_WHOLE_CAPACITY_HIGH "whole_capacity_high"
#define WINDOW_FILLER_KEY_PARTITIONED         "partitioned"
#define WINDOW_FILLER_KEY_DISAGREES           "disagrees"
#define WINDOW_FILLER_KEY_BEGIN_S             "begin_s"
#define WINDOW_FILLER_KEY_END_S               "end_s"
#define WINDOW_FILLER_KEY_ROB_STATE           "rob_state"
#define WINDOW_FILLER_KEY_ROB_BOUND           "rob_bound"
#define WINDOW_FILLER_KEY_KNEE                "knee"

/* Each of a filler's points[]: one filler count N. */
#define WINDOW_POINT_KEY_N           "n"
#define WINDOW_POINT_KEY_NS_PER_ITER "ns_per_iter"
#define WINDOW_POINT_KEY_TRIALS      "trials"

/* A filler's "repeat" object: both sides of the step timed again. */
#define WINDOW_REPEAT_KEY_AGREES                 "agrees"
#define WINDOW_REPEAT_KEY_FITS_SIDE_NS_PER_ITER  "fits_side_ns_per_iter"
#define WINDOW_REPEAT_KEY_FAILS_SIDE_NS_PER_ITER "fails_side_ns_per_iter"
#define WINDOW_REPEAT_KEY_RESWEEP                "resweep"
#define WINDOW_REPEAT_KEY_STEP_N_FITS            "step_n_fits"
#define WINDOW_REPEAT_KEY_STEP_N_FAILS           "step_n_fails"
#define WINDOW_REPEAT_KEY_CAPACITY               "capacity"
#define WINDOW_REPEAT_KEY_JUMP_RATIO             "jump_ratio"

/* The miss filler's "knee" object: misses in flight where time turns up. */
#define WINDOW_KNEE_KEY_BUFFERS          "buffers"
#define WINDOW_KNEE_KEY_BUFFERS_LOW      "buffers_low"
#define WINDOW_KNEE_KEY_BUFFERS_HIGH     "buffers_high"
#define WINDOW_KNEE_KEY_N_FITS           "n_fits"
#define WINDOW_KNEE_KEY_N_FAILS          "n_fails"
#define WINDOW_KNEE_KEY_FLAT_NS_PER_ITER "flat_ns_per_iter"
#define WINDOW_KNEE_KEY_RMS_REL_RESIDUAL "rms_rel_residual"
#define WINDOW_KNEE_KEY_PLAUSIBLE        "plausible"
#define WINDOW_KNEE_KEY_SLOPE_BUFFERS    "slope_buffers"

/* window.miss_buffer: the lines the miss filler walks. */
#define WINDOW_MISS_BUFFER_KEY_BUFFER_BYTES            "buffer_bytes"
#define WINDOW_MISS_BUFFER_KEY_TABLE_ENTRIES           "table_entries"
#define WINDOW_MISS_BUFFER_KEY_LINES_PER_ITERATION_MAX "lines_per_iteration_max"
#define WINDOW_MISS_BUFFER_KEY_LINES_CHECKED           "lines_checked"
#define WINDOW_MISS_BUFFER_KEY_LINES_REPEATED          "lines_repeated"
#define WINDOW_MISS_BUFFER_KEY_STRIDE_BYTES            "stride_bytes"
#define WINDOW_MISS_BUFFER_KEY_LINES_DISTINCT          "lines_distinct"

/* window.rob_over_run: the ROB's state checked over the run. */
#define WINDOW_ROB_KEY_CHECKS               "checks"
#define WINDOW_ROB_KEY_MEASURED             "measured"
#define WINDOW_ROB_KEY_WHOLE_CAPACITY       "whole_capacity"
#define WINDOW_ROB_KEY_WHOLE_N_FITS         "whole_n_fits"
#define WINDOW_ROB_KEY_WHOLE_N_FAILS        "whole_n_fails"
#define WINDOW_ROB_KEY_PARTITIONED_CAPACITY "partitioned_capacity"
#define WINDOW_ROB_KEY_PARTITIONED_N_FITS   "partitioned_n_fits"
#define WINDOW_ROB_KEY_PARTITIONED_N_FAILS  "partitioned_n_fails"
#define WINDOW_ROB_KEY_RUN_SECONDS          "run_seconds"
#define WINDOW_ROB_KEY_WHOLE_FRACTION       "whole_fraction"
#define WINDOW_ROB_KEY_PARTITIONED_FRACTION "partitioned_fraction"
#define WINDOW_ROB_KEY_UNKNOWN_FRACTION     "unknown_fraction"
#define WINDOW_ROB_KEY_ONE_STATE            "one_state"
#define WINDOW_ROB_KEY_NOTE                 "note"

/* Each of window.rob_over_run.checks[]: one check of the ROB's step. */
#define WINDOW_ROB_CHECK_KEY_WHEN         "when"
#define WINDOW_ROB_CHECK_KEY_BEGIN_S      "begin_s"
#define WINDOW_ROB_CHECK_KEY_END_S        "end_s"
#define WINDOW_ROB_CHECK_KEY_STEP_N_FITS  "step_n_fits"
#define WINDOW_ROB_CHECK_KEY_STEP_N_FAILS "step_n_fails"
#define WINDOW_ROB_CHECK_KEY_CAPACITY     "capacity"
#define WINDOW_ROB_CHECK_KEY_STATE        "state"

/* Each member of window.summary (keyed by structure): its verdict. */
#define WINDOW_SUMMARY_KEY_STRUCTURE     "structure"
#define WINDOW_SUMMARY_KEY_MEASURED      "measured"
#define WINDOW_SUMMARY_KEY_CAPACITY      "capacity"
#define WINDOW_SUMMARY_KEY_CAPACITY_LOW  "capacity_low"
#define WINDOW_SUMMARY_KEY_CAPACITY_HIGH "capacity_high"
#define WINDOW_SUMMARY_KEY_FROM          "from"
#define WINDOW_SUMMARY_KEY_UNIT          "unit"
#define WINDOW_SUMMARY_KEY_AGREE         "agree"
#define WINDOW_SUMMARY_KEY_DISAGREE      "disagree"
#define WINDOW_SUMMARY_KEY_NO_STEP       "no_step"
#define WINDOW_SUMMARY_KEY_ROB_BOUND     "rob_bound"
#define WINDOW_SUMMARY_KEY_PARTITIONED   "partitioned"
#define WINDOW_SUMMARY_KEY_NOISE_LIMITED "noise_limited"
#define WINDOW_SUMMARY_KEY_NOTE          "note"

/* Each of window.ramps[]: a stepping filler's ramp against its step. */
#define WINDOW_RAMP_KEY_FILLER      "filler"
#define WINDOW_RAMP_KEY_STRUCTURE   "structure"
#define WINDOW_RAMP_KEY_VERDICT     "verdict"
#define WINDOW_RAMP_KEY_ONSET_N     "onset_n"
#define WINDOW_RAMP_KEY_NEXT_N      "next_n"
#define WINDOW_RAMP_KEY_STEP_N_FITS "step_n_fits"
#define WINDOW_RAMP_KEY_RATIO_LOW   "ratio_low"
#define WINDOW_RAMP_KEY_RATIO_HIGH  "ratio_high"

#endif
