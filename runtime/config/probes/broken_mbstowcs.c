/* HAVE_BROKEN_MBSTOWCS: exits 0 when mbstowcs(NULL, "text", 0) returns the number of
   wide characters it would convert (configure.ac: "for broken mbstowcs"). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    size_t len = -1;
    const char *str = "text";
    len = mbstowcs(NULL, str, 0);
    return (len != 4);
}
