//! The GPU binary weft embeds in a program (clang's `-fcuda-include-gpubinary` file): weft's
//! PTX of one translation unit in a small container, since clang stores the bytes without
//! their length. Layout: the 8-byte magic `WEFTPTX1`, a little-endian `u32` flag word (bit 0:
//! the module calls functions it does not define, which the lowering gives arbitrary
//! results), the source path and the PTX, each as a little-endian `u64` length and bytes.

/// The container's first bytes.
pub const MAGIC: &[u8; 8] = b"WEFTPTX1";

/// One translation unit's device code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuBinary {
    /// The `.cu` file it was compiled from.
    pub source: String,
    /// weft's PTX.
    pub ptx: String,
    /// Calls of functions without a body are given arbitrary results (GPUVerify's meaning).
    pub havoc_externals: bool,
}

impl GpuBinary {
    /// The container's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&u32::from(self.havoc_externals).to_le_bytes());
        for s in [&self.source, &self.ptx] {
            out.extend_from_slice(&(s.len() as u64).to_le_bytes());
            out.extend_from_slice(s.as_bytes());
        }
        out
    }

    /// Reads a container from its bytes.
    pub fn decode(b: &[u8]) -> Result<GpuBinary, String> {
        if b.len() < 12 || &b[..8] != MAGIC {
            return Err(
                "the embedded GPU binary is not weft's (build the program with `weft cc`)".into(),
            );
        }
        let flags = u32::from_le_bytes([b[8], b[9], b[10], b[11]]);
        let mut at = 12usize;
        let mut field = || -> Result<String, String> {
            let n = b
                .get(at..at + 8)
                .map(|s| u64::from_le_bytes(s.try_into().unwrap_or([0; 8])) as usize)
                .ok_or("truncated GPU binary")?;
            let s = b.get(at + 8..at + 8 + n).ok_or("truncated GPU binary")?;
            at += 8 + n;
            String::from_utf8(s.to_vec()).map_err(|_| "GPU binary is not UTF-8".to_string())
        };
        let source = field()?;
        let ptx = field()?;
        Ok(GpuBinary {
            source,
            ptx,
            havoc_externals: flags & 1 == 1,
        })
    }

    /// Reads a container at `p` (the data pointer of clang's fatbin wrapper).
    ///
    /// # Safety
    /// `p` must point to a container written by [`GpuBinary::encode`].
    pub unsafe fn from_ptr(p: *const u8) -> Result<GpuBinary, String> {
        if p.is_null() {
            return Err("no GPU binary".into());
        }
        let head = std::slice::from_raw_parts(p, 12);
        if &head[..8] != MAGIC {
            return Err(
                "the embedded GPU binary is not weft's (build the program with `weft cc`)".into(),
            );
        }
        let len_at = |off: usize| -> usize {
            let s = std::slice::from_raw_parts(p.add(off), 8);
            u64::from_le_bytes(s.try_into().unwrap_or([0; 8])) as usize
        };
        let n1 = len_at(12);
        let n2 = len_at(20 + n1);
        let total = 28 + n1 + n2;
        GpuBinary::decode(std::slice::from_raw_parts(p, total))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let g = GpuBinary {
            source: "a.cu".into(),
            ptx: ".version 7.0".into(),
            havoc_externals: true,
        };
        let b = g.encode();
        assert_eq!(GpuBinary::decode(&b).unwrap(), g);
        assert_eq!(unsafe { GpuBinary::from_ptr(b.as_ptr()) }.unwrap(), g);
        assert!(GpuBinary::decode(b"PTX").is_err());
    }
}
