/* python/libnbdmod.c: the libnbdmod extension module: its method table
 * (generated into methods.c) and nbd.Error. */

#include <config.h>

#define PY_SSIZE_T_CLEAN 1
#include <Python.h>

#include <libnbd.h>

#include "methods.h"

PyObject *nbd_internal_py_Error;

static struct PyModuleDef moduledef = {
  PyModuleDef_HEAD_INIT,
  .m_name = "libnbdmod",
  .m_doc = "The C half of the nbd module; use nbd instead.",
  .m_size = -1,
  .m_methods = nbd_internal_py_methods,
};

extern PyMODINIT_FUNC PyInit_libnbdmod (void);

PyMODINIT_FUNC
PyInit_libnbdmod (void)
{
  PyObject *mod;

  mod = PyModule_Create (&moduledef);
  if (mod == NULL)
    return NULL;
  nbd_internal_py_Error = PyErr_NewException ("nbd.Error", NULL, NULL);
  if (nbd_internal_py_Error == NULL)
    goto error;
  Py_INCREF (nbd_internal_py_Error);
  if (PyModule_AddObject (mod, "Error", nbd_internal_py_Error) == -1) {
    Py_DECREF (nbd_internal_py_Error);
    goto error;
  }
  return mod;

 error:
  Py_DECREF (mod);
  return NULL;
}
