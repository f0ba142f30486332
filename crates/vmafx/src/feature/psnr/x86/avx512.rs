//! psnr's AVX-512 table: the row kernels of `sse_by` on 64-byte vectors, the last bytes of
//! a row by masked loads (masked-off lanes read zero in both rows and add nothing).

super::sse_by::sse_table!(
    "avx512f,avx512bw",
    super::lanes::Avx512,
    crate::cpu::CpuLevel::Avx512
);
