from .cast import cast_args
