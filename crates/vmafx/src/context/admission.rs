//! Admission (ADR-1929 item 9): before a frame is counted, every registered extractor says
//! whether it reads the memory the frame lives in; each one that does not is named with its
//! reason, and the frame is refused.

use super::Context;
use crate::error::{Error, Result, Status};
use crate::frame::Frame;

impl Context {
    /// Checks that every registered extractor reads `frame` where it lives. The error names
    /// every refusing extractor and why (a CPU extractor would need a host copy of device
    /// memory, which the import rule forbids).
    pub fn admit(&self, frame: &Frame) -> Result<()> {
        let memory = frame.memory();
        let mut refusals = Vec::new();
        for reg in &self.registrations {
            let probe = (reg.info.create)(&reg.options)?;
            if let Err(reason) = probe.reads_memory(memory) {
                refusals.push(format!("'{}': {reason}", reg.info.name));
            }
        }
        if refusals.is_empty() {
            return Ok(());
        }
        Err(Error::new(
            Status::NotSup,
            format!("frame in {}", memory.name()),
            format!("refused by {}", refusals.join("; ")),
        ))
    }

    /// Admits both inputs of a submit: the same memory, and each admitted.
    pub fn admit_pair(&self, reference: &Frame, distorted: &Frame) -> Result<()> {
        if reference.memory() != distorted.memory() {
            return Err(Error::invalid(
                "frame pair",
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
