/* Made by make from VERSION in the Makefile. */
#define XMLSNIFF_VERSION "1.0.0"
