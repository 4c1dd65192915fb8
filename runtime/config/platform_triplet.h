/* The platform triplet (PLATFORM_TRIPLET in upstream's configure.ac, "for the platform triplet
   based on compiler characteristics"): Linux part of upstream's table, read by
   runtime/config/meson.build with cc.get_define('PY_PLATFORM_TRIPLET'). Left undefined for an
   unknown platform, where configure also finds none. The musl variant is derived in Meson. */

#if defined(__ANDROID__)
    /* Android is not a multiarch system. */
#elif defined(__linux__)
# if defined(__x86_64__) && defined(__LP64__)
#  define PY_PLATFORM_TRIPLET x86_64-linux-gnu
# elif defined(__x86_64__) && defined(__ILP32__)
#  define PY_PLATFORM_TRIPLET x86_64-linux-gnux32
# elif defined(__i386__)
#  define PY_PLATFORM_TRIPLET i386-linux-gnu
# elif defined(__aarch64__) && defined(__AARCH64EL__)
#  if defined(__ILP32__)
#   define PY_PLATFORM_TRIPLET aarch64_ilp32-linux-gnu
#  else
#   define PY_PLATFORM_TRIPLET aarch64-linux-gnu
#  endif
# elif defined(__aarch64__) && defined(__AARCH64EB__)
#  if defined(__ILP32__)
#   define PY_PLATFORM_TRIPLET aarch64_be_ilp32-linux-gnu
#  else
#   define PY_PLATFORM_TRIPLET aarch64_be-linux-gnu
#  endif
# elif defined(__alpha__)
#  define PY_PLATFORM_TRIPLET alpha-linux-gnu
# elif defined(__ARM_EABI__) && defined(__ARM_PCS_VFP)
#  if defined(__ARMEL__)
#   define PY_PLATFORM_TRIPLET arm-linux-gnueabihf
#  else
#   define PY_PLATFORM_TRIPLET armeb-linux-gnueabihf
#  endif
# elif defined(__ARM_EABI__) && !defined(__ARM_PCS_VFP)
#  if defined(__ARMEL__)
#   define PY_PLATFORM_TRIPLET arm-linux-gnueabi
#  else
#   define PY_PLATFORM_TRIPLET armeb-linux-gnueabi
#  endif
# elif defined(__hppa__)
#  define PY_PLATFORM_TRIPLET hppa-linux-gnu
# elif defined(__ia64__)
#  define PY_PLATFORM_TRIPLET ia64-linux-gnu
# elif defined(__m68k__) && !defined(__mcoldfire__)
#  define PY_PLATFORM_TRIPLET m68k-linux-gnu
# elif defined(__mips_hard_float) && defined(__mips_isa_rev) && (__mips_isa_rev >=6) && defined(_MIPSEL)
#  if _MIPS_SIM == _ABIO32
#   define PY_PLATFORM_TRIPLET mipsisa32r6el-linux-gnu
#  elif _MIPS_SIM == _ABIN32
#   define PY_PLATFORM_TRIPLET mipsisa64r6el-linux-gnuabin32
#  elif _MIPS_SIM == _ABI64
#   define PY_PLATFORM_TRIPLET mipsisa64r6el-linux-gnuabi64
#  endif
# elif defined(__mips_hard_float) && defined(__mips_isa_rev) && (__mips_isa_rev >=6)
#  if _MIPS_SIM == _ABIO32
#   define PY_PLATFORM_TRIPLET mipsisa32r6-linux-gnu
#  elif _MIPS_SIM == _ABIN32
#   define PY_PLATFORM_TRIPLET mipsisa64r6-linux-gnuabin32
#  elif _MIPS_SIM == _ABI64
#   define PY_PLATFORM_TRIPLET mipsisa64r6-linux-gnuabi64
#  endif
# elif defined(__mips_hard_float) && defined(_MIPSEL)
#  if _MIPS_SIM == _ABIO32
#   define PY_PLATFORM_TRIPLET mipsel-linux-gnu
#  elif _MIPS_SIM == _ABIN32
#   define PY_PLATFORM_TRIPLET mips64el-linux-gnuabin32
#  elif _MIPS_SIM == _ABI64
#   define PY_PLATFORM_TRIPLET mips64el-linux-gnuabi64
#  endif
# elif defined(__mips_hard_float)
#  if _MIPS_SIM == _ABIO32
#   define PY_PLATFORM_TRIPLET mips-linux-gnu
#  elif _MIPS_SIM == _ABIN32
#   define PY_PLATFORM_TRIPLET mips64-linux-gnuabin32
#  elif _MIPS_SIM == _ABI64
#   define PY_PLATFORM_TRIPLET mips64-linux-gnuabi64
#  endif
# elif defined(__or1k__)
#  define PY_PLATFORM_TRIPLET or1k-linux-gnu
# elif defined(__powerpc__) && defined(__SPE__)
#  define PY_PLATFORM_TRIPLET powerpc-linux-gnuspe
# elif defined(__powerpc64__)
#  if defined(__LITTLE_ENDIAN__)
#   define PY_PLATFORM_TRIPLET powerpc64le-linux-gnu
#  else
#   define PY_PLATFORM_TRIPLET powerpc64-linux-gnu
#  endif
# elif defined(__powerpc__)
#  define PY_PLATFORM_TRIPLET powerpc-linux-gnu
# elif defined(__s390x__)
#  define PY_PLATFORM_TRIPLET s390x-linux-gnu
# elif defined(__s390__)
#  define PY_PLATFORM_TRIPLET s390-linux-gnu
# elif defined(__sh__) && defined(__LITTLE_ENDIAN__)
#  define PY_PLATFORM_TRIPLET sh4-linux-gnu
# elif defined(__sparc__) && defined(__arch64__)
#  define PY_PLATFORM_TRIPLET sparc64-linux-gnu
# elif defined(__sparc__)
#  define PY_PLATFORM_TRIPLET sparc-linux-gnu
# elif defined(__riscv)
#  if __riscv_xlen == 32
#   define PY_PLATFORM_TRIPLET riscv32-linux-gnu
#  elif __riscv_xlen == 64
#   define PY_PLATFORM_TRIPLET riscv64-linux-gnu
#  endif
# endif
#endif

/* Words of the triplet that compilers may predefine as macros (`linux` is 1 in GNU C mode). */
#undef bfin
#undef cris
#undef fr30
#undef linux
#undef hppa
#undef hpux
#undef i386
#undef mips
#undef powerpc
#undef sparc
#undef unix
