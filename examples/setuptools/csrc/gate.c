/* gate.c - ampext._gate: the torch facts this extension was compiled with
 * SPDX-License-Identifier: MIT
 *
 * Plain CPython C API: no torch header is needed. Everything torch-related
 * comes from build/ampext_torch_gate.h, which setup.py has `torchgate emit`
 * write before the compiler runs (include_dirs=["build"]).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "ampext_torch_gate.h"

/* Version checks work in #if, for what torchgate's API table does not
 * cover. (torch 2.4 moved custom_fwd/custom_bwd to torch.amp. For an API
 * that is in the table, test AMPEXT_HAS_<STEM> instead, as
 * has_amp_custom_fwd() below does: the table knows removals and
 * deprecations too.) */
#if AMPEXT_TORCH_AT_LEAST(2, 4, 0)
#define AMPEXT_AMP_MODULE "torch.amp"
#else
#define AMPEXT_AMP_MODULE "torch.cuda.amp"
#endif

static PyObject *torch_version(PyObject *self, PyObject *unused)
{
	(void)self;
	(void)unused;
	return PyUnicode_FromString(AMPEXT_TORCH_VERSION_STRING);
}

static PyObject *has_amp_custom_fwd(PyObject *self, PyObject *unused)
{
	(void)self;
	(void)unused;
	return PyLong_FromLong(AMPEXT_HAS_TORCH_AMP_CUSTOM_FWD);
}

static PyObject *amp_module(PyObject *self, PyObject *unused)
{
	(void)self;
	(void)unused;
	return PyUnicode_FromString(AMPEXT_AMP_MODULE);
}

/* AMPEXT_TORCH_AT_LEAST is an expression: it works at run time too */
static PyObject *at_least(PyObject *self, PyObject *args)
{
	int major, minor = 0, patch = 0;

	(void)self;
	if (!PyArg_ParseTuple(args, "i|ii:at_least", &major, &minor, &patch))
		return NULL;
	return PyBool_FromLong(AMPEXT_TORCH_AT_LEAST(major, minor, patch));
}

/* AMPEXT_TORCH_CXX11_ABI is left undefined when torchgate cannot tell */
static PyObject *cxx11_abi(PyObject *self, PyObject *unused)
{
	(void)self;
	(void)unused;
#ifdef AMPEXT_TORCH_CXX11_ABI
	return PyBool_FromLong(AMPEXT_TORCH_CXX11_ABI);
#else
	Py_RETURN_NONE;
#endif
}

static PyMethodDef gate_methods[] = {
	{"torch_version", torch_version, METH_NOARGS,
	 "The torch version this extension was compiled against."},
	{"has_amp_custom_fwd", has_amp_custom_fwd, METH_NOARGS,
	 "1 when that torch has torch.amp.custom_fwd, else 0."},
	{"amp_module", amp_module, METH_NOARGS,
	 "Where that torch keeps custom_fwd, by version: torch.amp from 2.4."},
	{"at_least", at_least, METH_VARARGS,
	 "at_least(major, minor=0, patch=0): that torch is at least this."},
	{"cxx11_abi", cxx11_abi, METH_NOARGS,
	 "That torch's _GLIBCXX_USE_CXX11_ABI as a bool, None when unknown."},
	{NULL, NULL, 0, NULL},
};

static struct PyModuleDef gate_module = {
	PyModuleDef_HEAD_INIT, "ampext._gate",
	"The torch facts ampext was compiled with (from torchgate emit).", -1,
	gate_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__gate(void)
{
	return PyModule_Create(&gate_module);
}
