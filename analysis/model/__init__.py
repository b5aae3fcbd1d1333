"""The program model of one file: scopes, symbols and references (file_model, built by model_c and
model_fortran through model_build), C/C++ types (c_types), constant expressions (constants) and
the target regions (regions)."""
