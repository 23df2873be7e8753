# python/nbd-head.py: the hand-written part of the nbd module (errors,
# nbd.Buffer, handle lifetime); the generator puts it at the top of
# nbd.py, before the constants and the generated NBD methods.

import contextlib
import errno as _errno_mod

import libnbdmod
from libnbdmod import Error

Error.__doc__ = '''A libnbd call failed.

.string is the message (prefixed by the failing call), .errnum the
errno number (0 if none), .errno its name such as "EINVAL", or None.
'''
Error.string = property(lambda self: self.args[0])
Error.errnum = property(lambda self: self.args[1])
Error.errno = property(
    lambda self: _errno_mod.errorcode.get(self.args[1]))


def _error_str(self):
    if self.errno is not None:
        return "%s (%s)" % (self.string, self.errno)
    return "%s" % self.string


Error.__str__ = _error_str


class ClosedHandle(ValueError):
    '''A method was called on a handle after its close().'''


@contextlib.contextmanager
def nbd():
    '''A handle closed at the end of the with block:

    with nbd.nbd() as h:
        ...
    '''
    h = NBD()
    try:
        yield h
    finally:
        h.close()


class Buffer(object):
    '''A buffer for aio_pread and aio_pwrite, kept alive by the
    library until the command retires.

    Buffer(n) is not initialised until something can see its contents:
    it reads as zeroes, and is zeroed before a command uses it.

    buf[i], buf[i:j] and assignment to them work as on a bytearray.
    '''

    def __init__(self, len):
        self._o = libnbdmod.alloc_aio_buffer(len)

    @classmethod
    def from_buffer(cls, buf):
        '''A Buffer sharing buf, any writable buffer-like object.'''
        with memoryview(buf):
            pass
        self = cls(0)
        self._o = buf
        self._init = True
        return self

    @classmethod
    def from_bytearray(cls, ba):
        '''A Buffer holding a copy of ba (or of bytearray(ba)).'''
        return cls.from_buffer(bytearray(ba))

    def _initialise(self):
        if not hasattr(self, '_init'):
            self._o = bytearray(len(self._o))
            self._init = True

    def to_buffer(self):
        '''The object underneath, shared with the Buffer.'''
        self._initialise()
        return self._o

    def to_bytearray(self):
        '''A copy of the contents, as a bytearray.'''
        if not hasattr(self, '_init'):
            return bytearray(len(self._o))
        return bytearray(self._o)

    def to_bytes(self):
        '''A copy of the contents, as bytes.'''
        return bytes(self.to_bytearray())

    def size(self):
        '''The size in bytes.'''
        return len(self._o)

    def __len__(self):
        return len(self._o)

    # Indexing and slicing are those of the object underneath (a
    # bytearray unless from_buffer shared another): buf[i] is an int,
    # buf[i:j] a copy, and the errors are its own (IndexError, ...).
    # While a command holds the buffer, a resizing slice assignment
    # fails with BufferError.
    def __getitem__(self, key):
        self._initialise()
        return self._o[key]

    def __setitem__(self, key, value):
        self._initialise()
        self._o[key] = value

    def is_zero(self, offset=0, size=-1):
        '''True if the bytes [offset, offset+size) are all zero; size -1
        means up to the end.'''
        return libnbdmod.aio_buffer_is_zero(self._o, offset, size,
                                            hasattr(self, '_init'))


class NBDBase(object):
    '''Lifetime of a handle; the calls are the methods of NBD.'''

    def __init__(self):
        self._o = libnbdmod.create()

    def __del__(self):
        if getattr(self, '_o', None) is not None:
            libnbdmod.close(self._o)
            self._o = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self._o is not None:
            self.close()

    def _check_not_closed(self):
        if self._o is None:
            raise ClosedHandle("libnbd: method called on closed handle")

    def close(self):
        '''Close the connection and free the handle now, rather than
        when the last reference goes.  No method may be called after.'''
        self._check_not_closed()
        o, self._o = self._o, None
        try:
            libnbdmod.close(o)
        except Error:
            self._o = o     # refused: called from its own callback
            raise
