/* The tests' one assertion: a failed check ends every process through bsp_abort, which
 * prints the condition and exits non-zero (so ctest sees the failure). */
#ifndef BSP_CHECK_H
#define BSP_CHECK_H
#include "bsp.h"
#define CHECK(cond)                                                                      \
  do {                                                                                   \
    if (!(cond)) bsp_abort("CHECK failed at %s:%d: %s", __FILE__, __LINE__, #cond);      \
  } while (0)
#endif
