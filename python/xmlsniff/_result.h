/* xmlsniff._core.ResultBase (_result.c), above _base.c. */
#ifndef XMLSNIFF_PY_RESULT_H
#define XMLSNIFF_PY_RESULT_H

#include "_base.h"

extern PyTypeObject	ResultBaseType;

#endif
