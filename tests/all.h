/*
 * Every layer's header of the library's inside and of the command line,
 * for the unit driver and the fuzz targets, which test the parts below
 * the interface (doc/DESIGN.md); the library's callers see <xmlsniff.h>
 * alone:
 *
 *   utf.h      the text layer: decoders, Char, lines and columns
 *   core.h     which encoding and why, over a buffer
 *   kernels.h  the fast paths and their one choice
 *   engine.h   decoding, validation and transcoding
 *   io.h       the command line: output formats, the walk, policy
 *
 * Data flow: bytes -> sniff -> validate -> report or transcode.
 */
#ifndef ALL_H
#define ALL_H

#include "engine.h"
#include "io.h"
#include "testhooks.h"

#endif
