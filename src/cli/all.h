/*
 * xmlsniff: the encoding of XML entities.  Every layer's header, for
 * main.c, the unit driver and the fuzz targets; each source file includes
 * only its own layer's (doc/DESIGN.md):
 *
 *   utf.h      the text layer: decoders, Char, lines and columns
 *   core.h     which encoding and why, over a buffer (the interface a
 *              library would have)
 *   kernels.h  the fast paths and their one choice
 *   engine.h   validation and transcoding
 *   io.h       input, output formats, the walk, policy, --fix, options
 *
 * Data flow: bytes -> sniff -> validate -> report or transcode.
 */
#ifndef XMLSNIFF_H
#define XMLSNIFF_H

#include "io.h"
#include "testhooks.h"

#endif
