/*
 * The installed pieces agree on one version: the build system's (CMake's deepgemm_VERSION
 * or pkg-config --modversion, passed as -DDEEPGEMM_EXPECTED_VERSION="X.Y.Z"), the header's
 * DEEPGEMM_VERSION_* macros, and what the library linked at run time reports. The SONAME
 * the program was linked against is checked from outside (readelf) by the test driver.
 */
#include <deepgemm.h>

#include <stdio.h>
#include <string.h>

#ifndef DEEPGEMM_EXPECTED_VERSION
#error "build with -DDEEPGEMM_EXPECTED_VERSION=\"X.Y.Z\" (the version the build system found)"
#endif

#define STR2(x) #x
#define STR(x) STR2(x)

int main(void) {
    int failures = 0;
    const char *header = STR(DEEPGEMM_VERSION_MAJOR) "." STR(DEEPGEMM_VERSION_MINOR) "." STR(
        DEEPGEMM_VERSION_PATCH);
    if (strcmp(header, DEEPGEMM_EXPECTED_VERSION) != 0) {
        fprintf(stderr, "header says %s, the build system found %s\n", header,
                DEEPGEMM_EXPECTED_VERSION);
        failures++;
    }
    size_t lib = deepgemmLtGetVersion();
    int32_t lib2 = -1;
    if (lib != (size_t)DEEPGEMM_VERSION ||
        deepgemmGetVersion(NULL, &lib2) != DEEPGEMM_STATUS_SUCCESS || lib2 != DEEPGEMM_VERSION) {
        fprintf(stderr, "library reports %zu / %d, header %d\n", lib, (int)lib2, DEEPGEMM_VERSION);
        failures++;
    }
    if (failures != 0) return 1;
    printf("version_check.c: deepgemm %s (library %zu): all checks passed\n", header, lib);
    return 0;
}
