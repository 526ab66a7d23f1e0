// libFuzzer's entry for programs that keep their own main (compiler-rt's FuzzerInterface.h).
// Only a declaration: the fuzz targets call it only when built with -DFUZZING, when
// -sanitize=fuzzer links libFuzzer in.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
