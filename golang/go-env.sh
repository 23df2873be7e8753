# go-env.sh: environment for building and testing the Go bindings
# against this build tree's libnbd, never the system's.  Sourced.
export CGO_CFLAGS="-I${abs_top_builddir}/include -I${abs_top_srcdir}/include"
export CGO_LDFLAGS="-L${abs_top_builddir}/lib/.libs"
# In a sanitizer build (see Makefile.am) the shims and the link use the
# same -fsanitize flags as the library.
if [ -n "${GO_SANITIZE:-}" ]; then
  CGO_CFLAGS="$CGO_CFLAGS $GO_SANITIZE"
  CGO_LDFLAGS="$CGO_LDFLAGS $GO_SANITIZE"
fi
export GOPROXY=off GOFLAGS=-buildvcs=false
# Build caches go to the build tree when $HOME cannot hold them.
if [ -z "${HOME:-}" ] || [ ! -w "${HOME:-/nonexistent}" ]; then
  export GOCACHE="${abs_builddir}/.gocache" GOPATH="${abs_builddir}/.gopath"
fi
