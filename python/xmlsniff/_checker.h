/* xmlsniff._core.Checker (_checker.c), above _base.c. */
#ifndef XMLSNIFF_PY_CHECKER_H
#define XMLSNIFF_PY_CHECKER_H

#include "_base.h"

extern PyTypeObject	CheckerType;

#endif
