/* HAVE_GLIBC_MEMMOVE_BUG: built with -O2 -D_FORTIFY_SOURCE=2, exits 0 when glibc's
   fortified memmove() handles overlapping buffers
   (configure.ac: "for glibc _FORTIFY_SOURCE/memmove bug";
   https://sourceware.org/ml/libc-alpha/2010-12/msg00009.html). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
void foo(void *p, void *q) { memmove(p, q, 19); }
int main(void) {
  char a[32] = "123456789000000000";
  foo(&a[9], a);
  if (strcmp(a, "123456789123456789000000000") != 0)
    return 1;
  foo(a, &a[9]);
  if (strcmp(a, "123456789000000000") != 0)
    return 1;
  return 0;
}
