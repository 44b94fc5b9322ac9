/* ti_cover.c -- written for t3sim's TI corpus (tests/data/ti-real): calls, once or a few times each,
 * the MPI functions whose SimGrid 3.32 TI action no public program of the corpus emits, plus the
 * corner cases a replayer must get right. Run with 8 ranks (any even count >= 4 works).
 * Each section is fenced by barriers so the trace reads section by section.
 *   A  sendRecv (MPI_Sendrecv, MPI_Sendrecv_replace), Ssend, ISsend, bsend, ibsend, Rsend (written "send")
 *   B  persistent requests: Send_init/Recv_init + Start, Startall; waitall over them
 *   C  waitAny, testany, testall, testsome, test; waitall followed by wait on other requests
 *   D  partners that are not ranks: MPI_PROC_NULL sends/isends/irecvs, MPI_ANY_SOURCE recv/irecv
 *   E  a derived datatype (vector) and MPI_IN_PLACE
 *   F  collectives on sub-communicators (split in halves; one collective only half the ranks call)
 *   G  v-collectives, reduce_scatter vs reduce_scatter_block, alltoallw, gather with recvcount 0 off-root
 *   H  RMA: Rget_accumulate, Fetch_and_op, Win_flush_local, Win_flush_local_all, Rput, Raccumulate
 *   I  sleep (traced only with --cfg=tracing/smpi/sleeping:yes), MPI_Comm_dup (not traced)
 * Argument "small": only sections A and D (used for the call-location trace). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, size;
static void fence(void) { MPI_Barrier(MPI_COMM_WORLD); }

static void section_a(void)
{
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  double out[64], in[64];
  for (int i = 0; i < 64; i++) out[i] = rank + i;
  MPI_Sendrecv(out, 64, MPI_DOUBLE, right, 1, in, 64, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv_replace(out, 32, MPI_DOUBLE, left, 2, right, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  /* even ranks send to the odd rank above them */
  int bufsize = 4 * (1024 + MPI_BSEND_OVERHEAD);
  void* bbuf = malloc(bufsize);
  MPI_Buffer_attach(bbuf, bufsize);
  MPI_Request r;
  if (rank % 2 == 0) {
    MPI_Ssend(out, 16, MPI_DOUBLE, rank + 1, 3, MPI_COMM_WORLD);
    MPI_Issend(out, 16, MPI_DOUBLE, rank + 1, 4, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Bsend(out, 8, MPI_DOUBLE, rank + 1, 5, MPI_COMM_WORLD);
    MPI_Ibsend(out, 8, MPI_DOUBLE, rank + 1, 6, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(in, 16, MPI_DOUBLE, rank - 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(in, 16, MPI_DOUBLE, rank - 1, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(in, 8, MPI_DOUBLE, rank - 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(in, 8, MPI_DOUBLE, rank - 1, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  fence(); /* the receive must be posted before an MPI_Rsend */
  if (rank % 2 == 1)
    MPI_Irecv(in, 4, MPI_DOUBLE, rank - 1, 7, MPI_COMM_WORLD, &r);
  fence();
  if (rank % 2 == 0)
    MPI_Rsend(out, 4, MPI_DOUBLE, rank + 1, 7, MPI_COMM_WORLD);
  else
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  int dummy;
  MPI_Buffer_detach(&dummy, &bufsize);
  free(bbuf);
  fence();
}

static void section_b(void)
{
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int out[100], in[100], in2[100];
  MPI_Request req[2], single;
  for (int i = 0; i < 100; i++) out[i] = rank;
  MPI_Recv_init(in, 100, MPI_INT, left, 10, MPI_COMM_WORLD, &req[0]);
  MPI_Send_init(out, 100, MPI_INT, right, 10, MPI_COMM_WORLD, &req[1]);
  for (int it = 0; it < 2; it++) {
    MPI_Startall(2, req);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  }
  MPI_Request_free(&req[0]);
  MPI_Request_free(&req[1]);
  /* MPI_Start on a persistent receive, then on a persistent send */
  MPI_Recv_init(in2, 50, MPI_INT, left, 11, MPI_COMM_WORLD, &single);
  MPI_Start(&single);
  MPI_Send_init(out, 50, MPI_INT, right, 11, MPI_COMM_WORLD, &req[1]);
  MPI_Start(&req[1]);
  MPI_Wait(&req[1], MPI_STATUS_IGNORE);
  MPI_Wait(&single, MPI_STATUS_IGNORE);
  MPI_Request_free(&single);
  MPI_Request_free(&req[1]);
  fence();
}

static void section_c(void)
{
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int out[4][10], in[4][10], flag, idx, outcount, indices[4];
  MPI_Request rr[4], sr[4];
  for (int k = 0; k < 4; k++) {
    MPI_Irecv(in[k], 10, MPI_INT, left, 20 + k, MPI_COMM_WORLD, &rr[k]);
    MPI_Isend(out[k], 10, MPI_INT, right, 20 + k, MPI_COMM_WORLD, &sr[k]);
  }
  MPI_Waitany(4, rr, &idx, MPI_STATUS_IGNORE);
  MPI_Testany(4, rr, &idx, &flag, MPI_STATUS_IGNORE);
  MPI_Testsome(4, rr, &outcount, indices, MPI_STATUSES_IGNORE);
  MPI_Testall(4, rr, &flag, MPI_STATUSES_IGNORE);
  MPI_Waitall(4, rr, MPI_STATUSES_IGNORE);
  MPI_Test(&sr[0], &flag, MPI_STATUS_IGNORE);
  MPI_Waitall(4, sr, MPI_STATUSES_IGNORE);
  fence();
  /* LULESH's pattern: waitall on the sends only, receives completed later one by one by MPI_Wait */
  for (int k = 0; k < 2; k++) {
    MPI_Irecv(in[k], 10, MPI_INT, left, 30 + k, MPI_COMM_WORLD, &rr[k]);
    MPI_Isend(out[k], 10, MPI_INT, right, 30 + k, MPI_COMM_WORLD, &sr[k]);
  }
  MPI_Waitall(2, sr, MPI_STATUSES_IGNORE);
  MPI_Wait(&rr[1], MPI_STATUS_IGNORE);
  MPI_Wait(&rr[0], MPI_STATUS_IGNORE);
  fence();
}

static void section_d(void)
{
  int v[8] = {0}, w[8];
  MPI_Request r;
  MPI_Send(v, 8, MPI_INT, MPI_PROC_NULL, 40, MPI_COMM_WORLD);
  MPI_Recv(w, 8, MPI_INT, MPI_PROC_NULL, 40, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* not traced */
  MPI_Isend(v, 8, MPI_INT, MPI_PROC_NULL, 41, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Irecv(w, 8, MPI_INT, MPI_PROC_NULL, 42, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  /* rank 0 receives one message from every other rank, in whatever order they come */
  if (rank == 0) {
    for (int k = 1; k < size; k++) {
      if (k % 2)
        MPI_Recv(w, 8, MPI_INT, MPI_ANY_SOURCE, 43, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      else {
        MPI_Irecv(w, 8, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
      }
    }
  } else {
    MPI_Send(v, 8, MPI_INT, 0, 43, MPI_COMM_WORLD);
  }
  fence();
}

static void section_e(void)
{
  double m[16][16], col[16];
  MPI_Datatype column;
  MPI_Type_vector(16, 1, 16, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 16; j++) m[i][j] = i * 16 + j;
  if (rank == 0)
    MPI_Send(&m[0][3], 1, column, 1, 50, MPI_COMM_WORLD);
  else if (rank == 1)
    MPI_Recv(col, 16, MPI_DOUBLE, 0, 50, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Bcast(&m[0][5], 1, column, 0, MPI_COMM_WORLD);
  MPI_Type_free(&column);
  double x[4] = {1, 2, 3, 4};
  MPI_Allreduce(MPI_IN_PLACE, x, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  long long c = rank;
  MPI_Allreduce(MPI_IN_PLACE, &c, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  fence();
}

static void section_f(void)
{
  MPI_Comm half, dup;
  int color = rank < size / 2 ? 0 : 1;
  MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  int hr;
  MPI_Comm_rank(half, &hr);
  double v[32] = {0}, s[32];
  MPI_Allreduce(v, s, 32, MPI_DOUBLE, MPI_SUM, half);
  MPI_Bcast(v, 32, MPI_DOUBLE, 1, half);     /* root: rank 1 of each half, world ranks 1 and size/2+1 */
  MPI_Reduce(v, s, 32, MPI_DOUBLE, MPI_SUM, 0, half);
  MPI_Barrier(half);
  if (color == 0)                             /* a collective only the first half calls */
    MPI_Allreduce(v, s, 8, MPI_DOUBLE, MPI_SUM, half);
  /* point-to-point on the sub-communicator: partner ranks are half-local in the program */
  int partner = hr ^ 1;
  MPI_Sendrecv(v, 4, MPI_DOUBLE, partner, 60, s, 4, MPI_DOUBLE, partner, 60, half, MPI_STATUS_IGNORE);
  MPI_Allreduce(v, s, 2, MPI_DOUBLE, MPI_SUM, dup);
  MPI_Comm_free(&half);
  MPI_Comm_free(&dup);
  fence();
}

static void section_g(void)
{
  int* sc = malloc(size * sizeof(int));
  int* sd = malloc(size * sizeof(int));
  int* rc = malloc(size * sizeof(int));
  int* rd = malloc(size * sizeof(int));
  int total = 0;
  for (int i = 0; i < size; i++) {
    sc[i] = i + 1;
    sd[i] = total;
    total += sc[i];
  }
  double* big = calloc(total * size + 64, sizeof(double));
  double* buf = calloc(total * size + 64, sizeof(double));
  int mine = rank + 1;
  MPI_Gatherv(buf, mine, MPI_DOUBLE, big, sc, sd, MPI_DOUBLE, 2, MPI_COMM_WORLD);
  MPI_Scatterv(big, sc, sd, MPI_DOUBLE, buf, mine, MPI_DOUBLE, 3, MPI_COMM_WORLD);
  MPI_Allgatherv(buf, mine, MPI_DOUBLE, big, sc, sd, MPI_DOUBLE, MPI_COMM_WORLD);
  /* gather: off-root ranks pass recvcount 0 (legal: it is only significant at the root) */
  MPI_Gather(buf, 3, MPI_DOUBLE, big, rank == 1 ? 3 : 0, MPI_DOUBLE, 1, MPI_COMM_WORLD);
  MPI_Scatter(big, 2, MPI_INT, buf, 2, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Allgather(buf, 5, MPI_FLOAT, big, 5, MPI_FLOAT, MPI_COMM_WORLD);
  MPI_Alltoall(big, 3, MPI_SHORT, buf, 3, MPI_SHORT, MPI_COMM_WORLD);
  for (int i = 0; i < size; i++) rc[i] = 2 + (i % 3);
  MPI_Reduce_scatter(big, buf, rc, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Reduce_scatter_block(big, buf, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  /* alltoallv with counts that differ per pair; alltoallw (SimGrid writes it as "alltoallv") */
  for (int i = 0; i < size; i++) { sc[i] = 1 + ((rank + i) % 4); rc[i] = 1 + ((rank + i) % 4); }
  sd[0] = rd[0] = 0;
  for (int i = 1; i < size; i++) { sd[i] = sd[i - 1] + sc[i - 1]; rd[i] = rd[i - 1] + rc[i - 1]; }
  MPI_Alltoallv(big, sc, sd, MPI_DOUBLE, buf, rc, rd, MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Datatype* types = malloc(size * sizeof(MPI_Datatype));
  for (int i = 0; i < size; i++) { types[i] = MPI_DOUBLE; sd[i] *= 8; rd[i] *= 8; }
  MPI_Alltoallw(big, sc, sd, types, buf, rc, rd, types, MPI_COMM_WORLD);
  double a = rank, b;
  MPI_Scan(&a, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Exscan(&a, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  free(types); free(big); free(buf); free(sc); free(sd); free(rc); free(rd);
  fence();
}

static void section_h(void)
{
  double* base;
  MPI_Win win;
  MPI_Win_allocate(64 * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  for (int i = 0; i < 64; i++) base[i] = 0;
  double one[8] = {1, 1, 1, 1, 1, 1, 1, 1}, res[8];
  int target = (rank + 1) % size;
  MPI_Request r;
  MPI_Win_lock_all(0, win);
  MPI_Rget_accumulate(one, 8, MPI_DOUBLE, res, 8, MPI_DOUBLE, target, 0, 8, MPI_DOUBLE, MPI_SUM, win, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Fetch_and_op(one, res, MPI_DOUBLE, target, 8, MPI_SUM, win);
  MPI_Rput(one, 4, MPI_DOUBLE, target, 16, 4, MPI_DOUBLE, win, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Raccumulate(one, 4, MPI_DOUBLE, target, 20, 4, MPI_DOUBLE, MPI_SUM, win, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Win_flush_local(target, win);
  MPI_Put(one, 2, MPI_DOUBLE, target, 30, 2, MPI_DOUBLE, win);
  MPI_Win_flush_local_all(win);
  MPI_Win_unlock_all(win);
  MPI_Win_free(&win);
  fence();
}

static void section_i(void)
{
  if (rank == 0)
    usleep(2000); /* SMPI intercepts usleep/sleep: a "sleep" action when sleeping states are traced */
  sleep(rank == 1 ? 1 : 0);
  fence();
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int small = argc > 1 && strcmp(argv[1], "small") == 0;
  section_a();
  if (!small) {
    section_b();
    section_c();
  }
  section_d();
  if (!small) {
    section_e();
    section_f();
    section_g();
    section_h();
    section_i();
  }
  if (rank == 0)
    printf("ti_cover: done (%d ranks%s)\n", size, small ? ", small" : "");
  MPI_Finalize();
  return 0;
}
