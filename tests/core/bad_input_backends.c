#include "bad_input.h"
const struct bi_row bi_rows_backends[1];
const size_t bi_nrows_backends = 0;
