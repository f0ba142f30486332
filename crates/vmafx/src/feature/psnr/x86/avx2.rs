//! psnr's AVX2 table: the row kernels of `sse_by` on 32-byte vectors, the last bytes of a
//! row by the scalar formula.

super::sse_by::sse_table!("avx2", super::lanes::Avx2, crate::cpu::CpuLevel::Avx2);
