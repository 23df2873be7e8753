// The Go API has libnbd's signatures, so programs written for libnbd's
// Go module compile unchanged.  These fail at compile time if not.
package libnbd

import "testing"

var (
	_ func() (*Libnbd, error)                                                  = Create
	_ func(*Libnbd) *LibnbdError                                               = (*Libnbd).Close
	_ func(*Libnbd, string) error                                              = (*Libnbd).ConnectUri
	_ func(*Libnbd, []string) error                                            = (*Libnbd).ConnectCommand
	_ func(*Libnbd, string) error                                              = (*Libnbd).ConnectUnix
	_ func(*Libnbd) (uint64, error)                                            = (*Libnbd).GetSize
	_ func(*Libnbd, []byte, uint64, *PreadOptargs) error                       = (*Libnbd).Pread
	_ func(*Libnbd, []byte, uint64, *PwriteOptargs) error                      = (*Libnbd).Pwrite
	_ func(*Libnbd, uint64, uint64, *ZeroOptargs) error                        = (*Libnbd).Zero
	_ func(*Libnbd, *FlushOptargs) error                                       = (*Libnbd).Flush
	_ func(*Libnbd, AioBuffer, uint64, *AioPreadOptargs) (uint64, error)       = (*Libnbd).AioPread
	_ func(*Libnbd, AioBuffer, uint64, *AioPwriteOptargs) (uint64, error)      = (*Libnbd).AioPwrite
	_ func(*Libnbd, uint64) (bool, error)                                      = (*Libnbd).AioCommandCompleted
	_ func(*Libnbd, int) (uint, error)                                         = (*Libnbd).Poll
	_ func(*Libnbd) (uint, error)                                              = (*Libnbd).AioInFlight
	_ func(*Libnbd, string) error                                              = (*Libnbd).AddMetaContext
	_ func(*Libnbd, uint64, uint64, ExtentCallback, *BlockStatusOptargs) error = (*Libnbd).BlockStatus
	_ func(*Libnbd, bool) error                                                = (*Libnbd).SetPreadInitialize
	_ func(*Libnbd) (bool, error)                                              = (*Libnbd).GetPreadInitialize
	_ func(*Libnbd, Tls) error                                                 = (*Libnbd).SetTls
	_ func(*Libnbd, string) error                                              = (*Libnbd).SetExportName
	_ func(*Libnbd, *ShutdownOptargs) error                                    = (*Libnbd).Shutdown
	_ func(*Libnbd, Size) (uint64, error)                                      = (*Libnbd).GetBlockSize
	_ func(*Libnbd) (*string, error)                                           = (*Libnbd).GetVersion
	_ func(uint) AioBuffer                                                     = MakeAioBuffer
	_ func([]byte) AioBuffer                                                   = FromBytes
	_ ExtentCallback                                                           = func(string, uint64, []uint32, *int) int { return 0 }
	_ Extent64Callback                                                         = func(string, uint64, []LibnbdExtent, *int) int { return 0 }
	_ CompletionCallback                                                       = func(*int) int { return 0 }
	_ ChunkCallback                                                            = func([]byte, uint64, uint, *int) int { return 0 }
	_ CmdFlag                                                                  = CMD_FLAG_FUA | CMD_FLAG_REQ_ONE
	_ uint32                                                                   = STATE_HOLE | STATE_ZERO
	_ string                                                                   = CONTEXT_BASE_ALLOCATION
	_ error                                                                    = &LibnbdError{}
)

func Test015Api(t *testing.T) {
	/* Compiling this file is the test. */
	opt := AioPreadOptargs{CompletionCallbackSet: true, FlagsSet: true,
		Flags: CMD_FLAG_DF}
	if !opt.FlagsSet {
		t.Fatal("Optargs fields")
	}
}
