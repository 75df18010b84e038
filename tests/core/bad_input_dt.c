#include "bad_input.h"
const struct bi_row bi_rows_dt[1];
const size_t bi_nrows_dt = 0;
