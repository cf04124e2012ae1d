/* xmlsniff._core.Transcoder (_transcode.c), above _base.c. */
#ifndef XMLSNIFF_PY_TRANSCODE_H
#define XMLSNIFF_PY_TRANSCODE_H

#include "_base.h"

extern PyTypeObject	TranscoderType;

#endif
