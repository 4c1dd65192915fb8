/* HAVE_IPA_PURE_CONST_BUG: built with -O2, exits 0 when gcc keeps the memory side effect
   of an inline asm statement (configure.ac: "for gcc ipa-pure-const bug";
   https://gcc.gnu.org/bugzilla/show_bug.cgi?id=46491). configure.ac writes `asm`; `__asm__`
   is the same statement, and a keyword in ISO modes too (Meson checks use the project's
   c_std, -std=c11 here). */
__attribute__((noinline)) int
foo(int *p) {
  int r;
  __asm__ ( "movl $6, (%1)\n\t"
            "xorl %0, %0\n\t"
            : "=r" (r) : "r" (p) : "memory"
  );
  return r;
}
int main(void) {
  int p = 8;
  if ((foo(&p) ? : p) != 6)
    return 1;
  return 0;
}
