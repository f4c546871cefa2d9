x = f"{a!r:>{w}} {f'{b}'}"
s = rb"\\" + Rb'''
'''
if (a and
    b): pass
)]}
$?\
