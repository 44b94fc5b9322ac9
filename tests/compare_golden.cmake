# Runs the newsletter workload under PROFILE and compares the CSV byte for byte with the golden copy.
execute_process(
  COMMAND ${BIN} run --machine ${SRC}/platforms/t3d-denali.yaml --workload ${SRC}/workloads/newsletter-shmem-get.yaml
          --profile ${PROFILE} --out ${OUT}
  RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "t3sim run failed with ${rc}")
endif()
set(name newsletter-shmem-get.${PROFILE})
foreach(ext csv json)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/${name}.${ext} ${GOLDEN}/${name}.${ext}
                  RESULT_VARIABLE diff)
  if(NOT diff EQUAL 0)
    message(FATAL_ERROR "${OUT}/${name}.${ext} differs from ${GOLDEN}/${name}.${ext}; if intended, run the update-golden target")
  endif()
endforeach()
