# A minimal C extension, built by tests/check_extension_build.py against a quicken build.
from distutils.core import Extension, setup

setup(name="spam", ext_modules=[Extension("spam", ["spam.c"])])
