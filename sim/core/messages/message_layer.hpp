// A message-passing layer over SHMEM, as the T3E's MPI was built: every send and receive becomes
// SHMEM operations, so messages load the same links, NICs and software costs as the one-sided traffic.
//
// A message of B bytes from PE s to PE r with tag t (B = the sender's count; the receive may be larger)
// travels by one of three protocols (MessageProtocol), chosen by protocol_of():
//   queue (B <= profile.mpi_queue_bytes, when that is above 0: the E-register message queues of MPT >= 1.3.0.5)
//     send at s    : mpi send; put one hardware message (kHardwareMessageBytes: envelope and data in one
//                    64-byte block of 8 E-registers) into r's message queue, signalling "mp.queue s t"
//                    when it lands (SignalOrder::OnArrival: no fence, no separate flag put) (returns at once)
//     receive at r : wait "mp.queue s t"; mpi receive; copy B out of the queue (a local get)
//   eager (B <= profile.eager_threshold)
//     send at s    : mpi send; put B to r, signalling r's flag "mp.eager s t"      (returns at once)
//     receive at r : wait "mp.eager s t"; mpi receive; copy B out of the receive buffer (a local get)
//   rendezvous (otherwise)
//     send at s    : mpi send; put an 8-byte request to r, signalling "mp.rts s t"
//                    ... finish: wait "mp.done r t"                        (the data has been pulled)
//     receive at r : wait "mp.rts s t"; mpi receive; get B from s (the MPI library's pull: it draws on
//                    r's mpi_bandwidth too); put 8 bytes to s, signalling "mp.done r t"
// "mpi send" and "mpi receive" are the calls' own software costs (mpi_send_overhead,
// mpi_recv_overhead: the library's envelopes, queues and matching), beyond the SHMEM calls each
// makes; the receive's comes after the envelope has arrived (matching it), so posting a receive
// early does not hide it. With mpi_send_overhead = message_overhead, no receive cost and no MPI rate, the rendezvous
// is operation for operation PSTSWM's nonblocking_receive swap (a regression test holds it).
// The queue path has no buffer to run out of in this model: a PE's queue is taken to hold every
// message in flight to it (the real library fell back to other paths when it filled: not modelled).
//
// Blocking calls do all their part at once. isend does its start at the call and its finish at the wait
// (for eager and queue: nothing); irecv does all its part at the wait, as an MPI without a progress engine
// (the T3E's) does: the data of an eager message still arrives during the computation in between.
// Requests never waited for complete at the end of their PE's program, as MPI_Finalize completes them.
// Progress: before a PE blocks on a rendezvous send (its own wait, or a blocking send), it completes
// every receive it has posted in the same context (the program's own messages, or one collective's),
// and a waitall completes its receives before its sends; so a ring of irecv/isend/wait does not
// deadlock, as it does not under an MPI that progresses inside its calls, and a receive posted before a
// collective is not forced to complete inside it.
//
// Matching: the k-th send from s to r with tag t meets the k-th receive at r from s with tag t (MPI's
// non-overtaking order). Wildcard receives (any source, any tag) then take, in program order, the
// earliest remaining send to their PE from the lowest-numbered sender that fits: a trace does not
// record which message arrived first; one that may stand for MPI_PROC_NULL (Call::maybe_null) and
// finds no send left completes at once. Flags count signals, so a wait on the k-th message of a
// channel completes once k of them have arrived. A send's protocol follows its mode (Call::Mode):
// a synchronous send (MPI_Ssend) always goes by rendezvous, as it completes only once its receive has
// started; a buffered send (MPI_Bsend) never does (queue when it fits, else eager: it returns once its
// data has left the caller's buffer, and a message the queue carries has); a standard send goes by
// its size against mpi_queue_bytes, then eager_threshold.
#pragma once
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/core/program/workload.hpp"
#include "sim/core/support/model_error.hpp"

namespace t3sim::core {

// One call of a traced program: a SHMEM operation, or a message-passing call.
struct Call {
  enum class Kind { Shmem, Send, Recv, WaitRequest, WaitAll };
  Kind kind = Kind::Shmem;
  Op op;          // Shmem: the operation (its pe, label, step and iteration are the call's)
  int peer = -1;  // Send: destination; Recv: source
  double bytes = 0;
  int tag = 0;
  bool blocking = true;  // Send/Recv: false for isend/irecv, which create a request
  // Send: MPI's send mode, which with the message's size decides its protocol (protocol_of): Standard
  // (MPI_Send: by size), Synchronous (MPI_Ssend: always rendezvous), Buffered (MPI_Bsend: never).
  enum class Mode : uint8_t { Standard, Buffered, Synchronous } mode = Mode::Standard;
  // Recv from any source that may have been from MPI_PROC_NULL (SimGrid writes both as -333): when no
  // send is left to match it, it completes at once with no data instead of being an error.
  bool maybe_null = false;
  int request = -1;        // isend/irecv: the request's number on its PE (0, 1, ...); WaitRequest: the one waited for
  NameId label = kNoName;  // reported name of the operations it expands into ("send", "bcast", ...): an id in
                           // the labels of the workload the calls become
  int line = 0;            // where it was written: line of the trace (1-based)
  int file = 0;            // index of the trace file it comes from (traces may be split per PE)
  int iteration = 0;       // measurement (size index)
};

// A call that cannot be replayed: an unmatched send or receive, a receive smaller than its message,
// a wait for a request that does not exist.
class MessageError : public ModelError {
 public:
  MessageError(int pe, const Call& call, const std::string& what)
      : ModelError(what), pe_(pe), line_(call.line), file_(call.file) {}
  int pe() const { return pe_; }
  int line() const { return line_; }
  int file() const { return file_; }

 private:
  int pe_;
  int line_;
  int file_;
};

constexpr double kControlBytes = 8;
// A receive from any source (MPI_ANY_SOURCE) or with any tag (MPI_ANY_TAG); collectives' own tags are
// other negative numbers.
constexpr int kAnySource = -1;
constexpr int kAnyTag = -2147483647 - 1;  // a request or acknowledgement of the rendezvous: one signalled word

// What a T3E hardware message carries: an aligned block of 8 E-registers, 64 bytes, sent whole to a
// message queue in the receiving node's memory (Duke CPS221 lecture notes, 1999;
// ../shared/reference/t3e-router-facts.md). The queue path puts exactly this much, whatever B is.
constexpr double kHardwareMessageBytes = 64;
// The smallest envelope (source, tag, size) a queued message needs: one 64-bit word, so at most
// kHardwareMessageBytes - kMinEnvelopeBytes bytes of data fit beside it (the profile loader's bound
// on mpi_queue_bytes).
constexpr double kMinEnvelopeBytes = 8;

// The protocols a message travels by (the semantics above).
enum class MessageProtocol : uint8_t { Queue, Eager, Rendezvous };

// The profile's switches between the protocols, in bytes of a message's data.
struct MessageProtocols {
  double eager_threshold = 0;  // largest message put into a buffer at the receiver (SoftwareProfile)
  double queue_bytes = 0;      // largest message carried by one hardware message; 0: no queue path
};

// The protocol a message of `bytes` travels by when its send's mode leaves it to the size.
MessageProtocol protocol_by_size(double bytes, const MessageProtocols& protocols);
// The protocol a send travels by: its Call::mode, and its size (the rules above).
MessageProtocol protocol_of(const Call& send, const MessageProtocols& protocols);

// What a send or receive was matched with: the message's bytes (the sender's count), and the source and
// tag the receive actually takes (a wildcard receive learns them here).
struct Matched {
  double bytes = 0;
  int source = -1;
  int tag = 0;
  MessageProtocol protocol = MessageProtocol::Eager;  // the protocol the message travels by (protocol_of)
  bool null = false;                                  // a receive from MPI_PROC_NULL: no message
};

// Expands one PE's calls, one at a time in program order, into its SHMEM operations (the semantics
// above): the one expansion both the whole-trace path (expand_messages) and the streaming replay use.
class MessageExpander {
 public:
  MessageExpander(int pe, InternTable& flags) : pe_(pe), flags_(&flags) {}
  // Appends the operations of call `c` to `out`; `m` is its match when `c` is a send or receive.
  void feed(const Call& c, const Matched& m, std::vector<Op>& out);
  // Appends the completion of the requests never waited for (as MPI_Finalize completes them).
  void finish(std::vector<Op>& out);
  // Requests posted and not yet completed.
  size_t pending() const { return pending_.size(); }

 private:
  struct Posted {
    Call call;
    Matched matched;
  };
  void finish_request(const Posted& p, const Call& site, std::vector<Op>& out);
  void serve_posted_receives(const Call& site, int tag, std::vector<Op>& out);
  int pe_;
  InternTable* flags_;
  std::map<int, Posted> pending_;  // request -> its isend/irecv, in request order
};

// Expands every PE's calls (programs[pe]) into SHMEM operations, PE by PE in program order, interning
// the layer's flags ("mp.eager s t", ...) into `flags`, the table the Shmem calls' own flags are in.
// Throws MessageError for the first call that cannot be matched. `null_receives`, when given, counts
// the maybe_null receives that no send matched (receives from MPI_PROC_NULL).
std::vector<Op> expand_messages(const std::vector<std::vector<Call>>& programs, const MessageProtocols& protocols,
                                InternTable& flags, size_t* null_receives = nullptr);
// The same, freeing each PE's calls once they are expanded (`programs` is left empty).
std::vector<Op> expand_messages(std::vector<std::vector<Call>>&& programs, const MessageProtocols& protocols,
                                InternTable& flags, size_t* null_receives = nullptr);

}  // namespace t3sim::core
