#include "bad_input.h"
const struct bi_row bi_rows_card[1];
const size_t bi_nrows_card = 0;
