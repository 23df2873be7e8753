/* python/handle.c: handles as capsules, nbd.Error, and the helpers of
 * nbd.Buffer, for the libnbdmod extension. */

#include <config.h>

#define PY_SSIZE_T_CLEAN 1
#include <Python.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <libnbd.h>

#include "methods.h"
#include "version.h"

#define CAPSULE_NAME "nbd_handle"

/* Raise nbd.Error (message, errno) from this thread's libnbd error. */
void
nbd_internal_py_raise_error (void)
{
  const char *msg = nbd_get_error ();
  PyObject *args;

  args = Py_BuildValue ("(si)", msg ? msg : "unknown error",
                        nbd_get_errno ());
  if (args != NULL) {
    PyErr_SetObject (nbd_internal_py_Error, args);
    Py_DECREF (args);
  }
}

/* The locked calls under way in this thread.  A callback runs inside
 * one of them, in its thread, with the handle's lock held.
 */
static __thread struct py_call *thread_calls;

/* Is a call on h under way in this thread?  Then the thread is in one
 * of h's callbacks, holding h's lock.  libnbd's lock is not recursive,
 * so a locked method would wait for ever for it, and nbd_close would
 * free the handle under the call that runs the callback.  Raise
 * nbd.Error (EDEADLK) instead, as the OCaml and Rust bindings do.
 */
static int
refuse_reentry (struct nbd_handle *h, const char *name)
{
  struct py_call *c;
  char msg[256];
  PyObject *args;

  for (c = thread_calls; c != NULL; c = c->outer)
    if (c->h == h)
      break;
  if (c == NULL)
    return 0;
  snprintf (msg, sizeof msg,
            "%s: called from a callback of the same handle, which holds "
            "the handle's lock (only the methods that skip the lock may be)",
            name);
  args = Py_BuildValue ("(si)", msg, EDEADLK);
  if (args != NULL) {
    PyErr_SetObject (nbd_internal_py_Error, args);
    Py_DECREF (args);
  }
  return -1;
}

/* Note a locked call as this thread's until nbd_internal_py_call_end,
 * or raise nbd.Error if it came from a callback of its own handle.
 */
int
nbd_internal_py_call_begin (struct py_call *call, struct nbd_handle *h,
                            const char *name)
{
  if (refuse_reentry (h, name) == -1)
    return -1;
  call->h = h;
  call->outer = thread_calls;
  thread_calls = call;
  return 0;
}

void
nbd_internal_py_call_end (struct py_call *call)
{
  thread_calls = call->outer;
}

/* The handle in a capsule made by create; NULL with an exception set
 * if obj is anything else.
 */
struct nbd_handle *
nbd_internal_py_get_handle (PyObject *obj)
{
  return PyCapsule_GetPointer (obj, CAPSULE_NAME);
}

PyObject *
nbd_internal_py_create (PyObject *self, PyObject *args)
{
  struct nbd_handle *h;
  PyObject *capsule;

  if (!PyArg_ParseTuple (args, ":create"))
    return NULL;
  h = nbd_create ();
  if (h == NULL) {
    nbd_internal_py_raise_error ();
    return NULL;
  }
  capsule = PyCapsule_New (h, CAPSULE_NAME, NULL);
  if (capsule == NULL)
    nbd_close (h);
  return capsule;
}

/* The capsule has no destructor: nbd.NBD closes it exactly once, by
 * close() or __del__.  Completion callbacks of abandoned commands and
 * the .free of every closure run inside nbd_close, and take the GIL
 * themselves.
 */
PyObject *
nbd_internal_py_close (PyObject *self, PyObject *args)
{
  PyObject *py_h;
  struct nbd_handle *h;

  if (!PyArg_ParseTuple (args, "O:close", &py_h))
    return NULL;
  h = nbd_internal_py_get_handle (py_h);
  if (h == NULL)
    return NULL;
  if (refuse_reentry (h, "close") == -1)
    return NULL;
  if (PyCapsule_SetName (py_h, "nbd_handle (closed)") == -1)
    return NULL;

  Py_BEGIN_ALLOW_THREADS
  nbd_close (h);
  Py_END_ALLOW_THREADS

  Py_RETURN_NONE;
}

/* display_version (program_name): what a tool's --version prints,
 * for a program (such as another build's nbdsh) that asks the module
 * for it, as libnbd's module has it.  Python's own buffered stdout is
 * flushed first, so the lines come out in order.
 */
PyObject *
nbd_internal_py_display_version (PyObject *self, PyObject *args)
{
  const char *program;
  PyObject *r;

  if (!PyArg_ParseTuple (args, "s:display_version", &program))
    return NULL;
  r = PyObject_CallMethod (PySys_GetObject ("stdout"), "flush", NULL);
  if (r == NULL)
    PyErr_Clear ();             /* no stdout to flush: print anyway */
  Py_XDECREF (r);
  print_version (program);
  fflush (stdout);
  Py_RETURN_NONE;
}

/* The storage of nbd.Buffer (n): a bytearray left uninitialised, which
 * bytearray (n) in Python would zero; nbd.Buffer zeroes it before
 * anything can see it.
 */
PyObject *
nbd_internal_py_alloc_aio_buffer (PyObject *self, PyObject *args)
{
  Py_ssize_t len;

  if (!PyArg_ParseTuple (args, "n:alloc_aio_buffer", &len))
    return NULL;
  if (len < 0) {
    PyErr_SetString (PyExc_ValueError, "buffer size must not be negative");
    return NULL;
  }
  return PyByteArray_FromStringAndSize (NULL, len);
}

static bool
all_zero (const char *p, size_t n)
{
  size_t i;

  for (i = 0; i < n && i < 16; i++)
    if (p[i] != 0)
      return false;
  return n <= 16 || memcmp (p, p + 16, n - 16) == 0;
}

/* aio_buffer_is_zero (buf, offset, size, initialised). */
PyObject *
nbd_internal_py_aio_buffer_is_zero (PyObject *self, PyObject *args)
{
  Py_buffer buf;
  Py_ssize_t offset, size;
  int init;
  PyObject *ret = NULL;

  if (!PyArg_ParseTuple (args, "y*nnp:aio_buffer_is_zero",
                         &buf, &offset, &size, &init))
    return NULL;
  /* An empty range is all zeroes wherever it is, as in libnbd 1.22:
   * size 0 is answered before the offset is looked at.
   */
  if (size == 0)
    ret = Py_True;
  else if (offset < 0 || offset > buf.len)
    PyErr_SetString (PyExc_IndexError, "offset out of range");
  else if (size < -1)
    PyErr_SetString (PyExc_IndexError,
                     "size must be -1 (to the end) or at least 0");
  else if (size > buf.len - offset)
    PyErr_SetString (PyExc_IndexError, "size out of range");
  else {
    if (size == -1)
      size = buf.len - offset;
    ret = !init || all_zero ((const char *) buf.buf + offset, size)
      ? Py_True : Py_False;
  }
  Py_XINCREF (ret);
  PyBuffer_Release (&buf);
  return ret;
}
