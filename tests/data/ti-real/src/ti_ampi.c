/* ti_ampi.c -- written for t3sim's TI corpus (tests/data/ti-real): the three TI actions of SimGrid's
 * AMPI plugin (smpi/sampi.h), which only programs calling AMPI_Iteration_in/_out and AMPI_Migrate
 * emit: "iteration_in", "iteration_out" and "migrate BYTES" (BYTES: heap the rank holds through
 * sampi's malloc). Two iterations with an allreduce in each; rank r keeps (r+1) KiB allocated. */
#include <mpi.h>
#include <smpi/sampi.h>
#include <stdio.h>

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char* held = malloc((rank + 1) * 1024);
  for (int it = 0; it < 2; it++) {
    AMPI_Iteration_in(MPI_COMM_WORLD);
    double x = rank + it, y;
    MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    AMPI_Iteration_out(MPI_COMM_WORLD);
    AMPI_Migrate(MPI_COMM_WORLD);
  }
  free(held);
  if (rank == 0)
    printf("ti_ampi: done\n");
  MPI_Finalize();
  return 0;
}
