//! Admission (ADR-1929 item 9): before a frame is counted, every registered extractor says
//! whether it reads the memory the frame lives in; each one that does not is named with its
//! reason, and the frame is refused. A frame in device memory must also live on the
//! context's device.

use super::Context;
use crate::error::{Error, Result, Status};
use crate::frame::{Frame, MemoryKind};

impl Context {
    /// Checks that every registered extractor reads `frame` where it lives. The error's
    /// subject is the first refusing extractor and its message names every one and why (a
    /// CPU extractor would need a host copy of device memory, which the import rule
    /// forbids). Without a refusal, a device frame the context's device does not hold is
    /// `NotSup` naming `frame`.
    pub fn admit(&self, frame: &Frame) -> Result<()> {
        let memory = frame.memory();
        let mut refusals = Vec::new();
        for reg in &self.registrations {
            let probe = (reg.info.create)(&reg.options)?;
            if let Err(reason) = probe.reads_memory(memory) {
                refusals.push((reg.info.name, reason));
            }
        }
        if let Some((first, _)) = refusals.first() {
            let n = refusals.len();
            let named: Vec<String> = refusals
                .iter()
                .map(|(name, reason)| format!("{name} (cpu): {reason}"))
                .collect();
            return Err(Error::new(
                Status::NotSup,
                *first,
                format!(
                    "frame in {} refused by {n} extractor{}: {}",
                    memory.name(),
                    if n == 1 { "" } else { "s" },
                    named.join("; ")
                ),
            ));
        }
        let device = self.device();
        if memory != MemoryKind::Host && !device.info().memory_kinds.contains(&memory) {
            let info = device.info();
            return Err(Error::new(
                Status::NotSup,
                "frame",
                format!(
                    "frame in {} does not live on the context's device ({} {})",
                    memory.name(),
                    info.backend.name(),
                    info.index
                ),
            ));
        }
        Ok(())
    }

    /// Admits both inputs of a submit: the same memory (else `Invalid` naming
    /// `distorted`), and each admitted.
    pub fn admit_pair(&self, reference: &Frame, distorted: &Frame) -> Result<()> {
        if reference.memory() != distorted.memory() {
            return Err(Error::invalid(
                "distorted",
                format!(
                    "reference lives in {} but distorted in {}; both inputs of a submit live in the same memory",
                    reference.memory().name(),
                    distorted.memory().name()
                ),
            ));
        }
        self.admit(reference)
    }
}
