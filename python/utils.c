/* python/utils.c: conversions and closure helpers shared by the
 * generated functions of python/methods.c. */

#include <config.h>

#define PY_SSIZE_T_CLEAN 1
#include <Python.h>

#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <libnbd.h>

#include "methods.h"

/* A NULL-terminated copy of a list of str; the caller frees it with
 * nbd_internal_py_free_string_list.
 */
char **
nbd_internal_py_get_string_list (PyObject *obj)
{
  Py_ssize_t i, n;
  char **r;

  if (!PyList_Check (obj) && !PyTuple_Check (obj)) {
    PyErr_SetString (PyExc_TypeError, "expecting a list of strings");
    return NULL;
  }
  n = PySequence_Size (obj);
  r = calloc (n + 1, sizeof *r);
  if (r == NULL)
    return (char **) PyErr_NoMemory ();
  for (i = 0; i < n; i++) {
    const char *s = PyUnicode_AsUTF8 (PySequence_Fast_GET_ITEM (obj, i));

    if (s == NULL || (r[i] = strdup (s)) == NULL) {
      if (s != NULL)
        PyErr_NoMemory ();
      nbd_internal_py_free_string_list (r);
      return NULL;
    }
  }
  return r;
}

void
nbd_internal_py_free_string_list (char **list)
{
  size_t i;

  if (list == NULL)
    return;
  for (i = 0; list[i] != NULL; i++)
    free (list[i]);
  free (list);
}

static int
unix_sockaddr (PyObject *path, struct sockaddr_storage *ss, socklen_t *len)
{
  struct sockaddr_un *sun = (struct sockaddr_un *) ss;
  Py_ssize_t n;
  const char *s = PyUnicode_AsUTF8AndSize (path, &n);

  if (s == NULL)
    return -1;
  if ((size_t) n >= sizeof sun->sun_path) {
    PyErr_SetString (PyExc_ValueError, "Unix socket path too long");
    return -1;
  }
  sun->sun_family = AF_UNIX;
  memcpy (sun->sun_path, s, n + 1);
  *len = sizeof *sun;
  return 0;
}

/* The checks of the socket module: a port or flowinfo out of range is
 * refused, not truncated to its field.
 */
static int
check_port (int port, unsigned int flowinfo)
{
  if (port < 0 || port > 0xffff) {
    PyErr_SetString (PyExc_OverflowError, "port must be 0-65535.");
    return -1;
  }
  if (flowinfo > 0xfffff) {
    PyErr_SetString (PyExc_OverflowError, "flowinfo must be 0-1048575.");
    return -1;
  }
  return 0;
}

/* (host, port) for IPv4, (host, port, flowinfo, scope_id) for IPv6,
 * hosts as numeric addresses, like the socket module's tuples.
 */
static int
inet_sockaddr (PyObject *t, struct sockaddr_storage *ss, socklen_t *len)
{
  struct sockaddr_in *sin = (struct sockaddr_in *) ss;
  struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *) ss;
  const char *host;
  int port;
  unsigned int flowinfo = 0, scope_id = 0;

  if (PyTuple_Size (t) == 2) {
    if (!PyArg_ParseTuple (t, "si", &host, &port) ||
        check_port (port, 0) == -1)
      return -1;
    sin->sin_family = AF_INET;
    sin->sin_port = htons (port);
    *len = sizeof *sin;
    if (inet_pton (AF_INET, host, &sin->sin_addr) == 1)
      return 0;
  }
  else {
    if (!PyArg_ParseTuple (t, "si|II", &host, &port, &flowinfo,
                           &scope_id) ||
        check_port (port, flowinfo) == -1)
      return -1;
    sin6->sin6_family = AF_INET6;
    sin6->sin6_port = htons (port);
    sin6->sin6_flowinfo = htonl (flowinfo);
    sin6->sin6_scope_id = scope_id;
    *len = sizeof *sin6;
    if (inet_pton (AF_INET6, host, &sin6->sin6_addr) == 1)
      return 0;
  }
  PyErr_Format (PyExc_ValueError, "not a numeric address: %s", host);
  return -1;
}

/* A socket address from a str (a Unix socket path) or a tuple. */
int
nbd_internal_py_get_sockaddr (PyObject *addr,
                              struct sockaddr_storage *ss, socklen_t *len)
{
  memset (ss, 0, sizeof *ss);
  if (PyUnicode_Check (addr))
    return unix_sockaddr (addr, ss, len);
  if (PyTuple_Check (addr))
    return inet_sockaddr (addr, ss, len);
  PyErr_SetString (PyExc_TypeError,
                   "address must be a Unix socket path or a tuple");
  return -1;
}

/* Lazily looked up attributes of other modules. */
static PyObject *
module_attr (PyObject **cache, const char *module, const char *name)
{
  if (*cache == NULL) {
    PyObject *mod = PyImport_ImportModule (module);

    if (mod == NULL)
      return NULL;
    *cache = PyObject_GetAttrString (mod, name);
    Py_DECREF (mod);
  }
  return *cache;
}

/* The storage of an nbd.Buffer, zeroed first if it was not yet
 * initialised; a new reference.  Anything else is returned as it is.
 */
static PyObject *
buffer_storage (PyObject *obj)
{
  static PyObject *buffer_type;
  PyObject *type = module_attr (&buffer_type, "nbd", "Buffer");
  PyObject *o;
  int r;

  if (type == NULL)
    return NULL;
  r = PyObject_IsInstance (obj, type);
  if (r <= 0) {
    if (r == 0)
      Py_INCREF (obj);
    return r == 0 ? obj : NULL;
  }
  if (!PyObject_HasAttrString (obj, "_init")) {
    o = PyObject_GetAttrString (obj, "_o");
    if (o != NULL && PyByteArray_Check (o))
      memset (PyByteArray_AS_STRING (o), 0, PyByteArray_GET_SIZE (o));
    Py_XDECREF (o);
    if (o == NULL || PyObject_SetAttrString (obj, "_init", Py_True) == -1)
      return NULL;
  }
  return PyObject_GetAttrString (obj, "_o");
}

/* A read-only memoryview of a contiguous buffer (or nbd.Buffer), which
 * pins the buffer: a bytearray cannot be resized while it exists.  The
 * library writes into it through the pointer when buffertype is
 * PyBUF_WRITE, so then the object must be writable.
 */
PyObject *
nbd_internal_py_buffer_view (PyObject *obj, int buffertype)
{
  PyObject *storage, *view, *ro;

  storage = buffer_storage (obj);
  if (storage == NULL)
    return NULL;
  view = PyMemoryView_GetContiguous (storage, buffertype, 'C');
  Py_DECREF (storage);
  if (view == NULL)
    return NULL;
  ro = PyObject_CallMethod (view, "toreadonly", NULL);
  Py_DECREF (view);
  return ro;
}

/* The slice of view holding [p, p + count), for a chunk callback. */
PyObject *
nbd_internal_py_subview (PyObject *view, const void *p, size_t count)
{
  Py_buffer *b = PyMemoryView_GET_BUFFER (view);
  Py_ssize_t start = (const char *) p - (const char *) b->buf;
  PyObject *lo, *hi, *slice = NULL, *r;

  if (start < 0 || (size_t) start > (size_t) b->len ||
      count > (size_t) b->len - start) {
    PyErr_SetString (PyExc_SystemError, "chunk outside the read buffer");
    return NULL;
  }
  lo = PyLong_FromSsize_t (start);
  hi = PyLong_FromSsize_t (start + count);
  if (lo != NULL && hi != NULL)
    slice = PySlice_New (lo, hi, NULL);
  Py_XDECREF (lo);
  Py_XDECREF (hi);
  if (slice == NULL)
    return NULL;
  r = PyObject_GetItem (view, slice);
  Py_DECREF (slice);
  return r;
}

/* The data of a closure about to be passed to the library: fn must be
 * callable, or None when the closure is optional (fn stays NULL).
 */
struct py_closure *
nbd_internal_py_new_closure (PyObject *fn, const char *name, int optional)
{
  struct py_closure *data;

  if (!(optional && fn == Py_None) && !PyCallable_Check (fn)) {
    PyErr_Format (PyExc_TypeError, "%s: expecting a callable", name);
    return NULL;
  }
  data = calloc (1, sizeof *data);
  if (data == NULL)
    return (struct py_closure *) PyErr_NoMemory ();
  if (fn != Py_None) {
    /* The library may call it after this call returns. */
    Py_INCREF (fn);
    data->fn = fn;
  }
  return data;
}

/* The .free of every closure: called once by the library, from any
 * thread, with or without the GIL held.
 */
void
nbd_internal_py_free_closure (void *user_data)
{
  struct py_closure *data = user_data;
  PyGILState_STATE gil;

  if (data == NULL)
    return;
  gil = PyGILState_Ensure ();
  Py_XDECREF (data->fn);
  Py_XDECREF (data->view);
  PyGILState_Release (gil);
  free (data);
}

/* The int *error of a callback as a ctypes.c_int: the callback reads
 * and sets .value.
 */
PyObject *
nbd_internal_py_new_errptr (int err)
{
  static PyObject *c_int;

  if (module_attr (&c_int, "ctypes", "c_int") == NULL)
    return NULL;
  return PyObject_CallFunction (c_int, "i", err);
}

void
nbd_internal_py_get_errptr (PyObject *obj, int *err)
{
  PyObject *v = PyObject_GetAttrString (obj, "value");
  long n;

  if (v == NULL) {
    PyErr_PrintEx (0);
    return;
  }
  n = PyLong_AsLong (v);
  Py_DECREF (v);
  if (n == -1 && PyErr_Occurred ())
    PyErr_PrintEx (0);
  else
    *err = n;
}

/* Call a callback's function.  Its result is an int it returned, 0
 * for anything else, and -1 if it raised: the exception is printed,
 * and the command fails.  A failed assert in a callback is a bug in
 * the program, so it ends the program, as with libnbd's bindings.
 */
int
nbd_internal_py_call (PyObject *fn, PyObject *args)
{
  PyObject *r = PyObject_CallObject (fn, args);
  int ret = 0;

  if (r == NULL) {
    if (PyErr_ExceptionMatches (PyExc_AssertionError)) {
      PyErr_Print ();
      abort ();
    }
    PyErr_PrintEx (0);
    return -1;
  }
  if (PyLong_Check (r)) {
    ret = PyLong_AsLong (r);
    if (ret == -1 && PyErr_Occurred ())
      PyErr_PrintEx (0);
  }
  Py_DECREF (r);
  return ret;
}
