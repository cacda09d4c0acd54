//! The workspace's one CPU-feature decision: which instruction-set extensions this CPU has,
//! detected once, and which of them are fast (a feature can be present but microcoded).
//!
//! Every crate that picks code by CPU asks here: the move-generation back ends
//! ([`super::Backend::supported`], [`super::Backend::best`]), perft's AVX-512 counts, and the
//! pattern evaluation's index extraction (`othello-pattern`). A forced back end
//! (`OTHELLO_BACKEND`) narrows what those crates use through [`super::backend`], not here:
//! this module only says what the hardware can do.

use std::sync::OnceLock;

/// The x86-64 extensions the workspace's fast paths use, as the CPU reports them (all `false`
/// on other architectures).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CpuFeatures {
    /// AVX2.
    pub avx2: bool,
    /// BMI1 (`tzcnt`, `andn`).
    pub bmi1: bool,
    /// BMI2 (`pext`, `pdep`), fast or not (see [`pext_is_fast_on`]).
    pub bmi2: bool,
    /// LZCNT.
    pub lzcnt: bool,
    /// POPCNT.
    pub popcnt: bool,
    /// AVX-512 Foundation.
    pub avx512f: bool,
    /// AVX-512 Vector Length extensions (the 128- and 256-bit forms).
    pub avx512vl: bool,
    /// AVX-512 Byte and Word instructions.
    pub avx512bw: bool,
    /// AVX-512 Conflict Detection (`vplzcntq`).
    pub avx512cd: bool,
    /// AVX-512 VBMI (byte permutations).
    pub avx512vbmi: bool,
    /// AVX-512 VBMI2 (compress and expand of bytes and words).
    pub avx512vbmi2: bool,
    /// AVX-512 VPOPCNTDQ (lane-wise popcount).
    pub avx512vpopcntdq: bool,
}

impl CpuFeatures {
    /// What this CPU reports, asked anew (use [`cpu_features`] for the cached answer).
    pub fn detect() -> CpuFeatures {
        #[cfg(target_arch = "x86_64")]
        {
            use std::is_x86_feature_detected as has;
            CpuFeatures {
                avx2: has!("avx2"),
                bmi1: has!("bmi1"),
                bmi2: has!("bmi2"),
                lzcnt: has!("lzcnt"),
                popcnt: has!("popcnt"),
                avx512f: has!("avx512f"),
                avx512vl: has!("avx512vl"),
                avx512bw: has!("avx512bw"),
                avx512cd: has!("avx512cd"),
                avx512vbmi: has!("avx512vbmi"),
                avx512vbmi2: has!("avx512vbmi2"),
                avx512vpopcntdq: has!("avx512vpopcntdq"),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            CpuFeatures::default()
        }
    }

    /// The AVX2 back end's set: AVX2, BMI1, LZCNT and POPCNT.
    pub const fn avx2_set(&self) -> bool {
        self.avx2 && self.bmi1 && self.lzcnt && self.popcnt
    }

    /// The AVX-512 back end's extensions beyond the AVX2 set and BMI2: F, VL and CD.
    pub const fn avx512_set(&self) -> bool {
        self.avx512f && self.avx512vl && self.avx512cd
    }

    /// The Ice Lake extensions perft's AVX-512 counts add: BW, VBMI2 and VPOPCNTDQ.
    pub const fn avx512_icl_set(&self) -> bool {
        self.avx512bw && self.avx512vbmi2 && self.avx512vpopcntdq
    }
}

/// This CPU's features, detected at the first call and cached.
pub fn cpu_features() -> &'static CpuFeatures {
    static FEATURES: OnceLock<CpuFeatures> = OnceLock::new();
    FEATURES.get_or_init(CpuFeatures::detect)
}

/// The CPU's vendor string from CPUID leaf 0 (`GenuineIntel`, `AuthenticAMD`, ...); `None` on
/// other architectures. With [`cpu_family`], what a back-end choice needs beyond the feature
/// bits (a feature can be present but slow).
pub fn cpu_vendor() -> Option<[u8; 12]> {
    #[cfg(target_arch = "x86_64")]
    {
        // CPUID leaf 0 (the vendor, in EBX, EDX, ECX) exists on every x86-64 CPU.
        let v = std::arch::x86_64::__cpuid(0);
        let mut out = [0u8; 12];
        for (chunk, reg) in out.chunks_exact_mut(4).zip([v.ebx, v.edx, v.ecx]) {
            chunk.copy_from_slice(&reg.to_le_bytes());
        }
        Some(out)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        None
    }
}

/// The CPU's family from CPUID leaf 1, as `lscpu` prints it (the base family, plus the
/// extended family when the base is 0xf: 0x19 for AMD Zen 3 and 4, 6 for Intel's cores);
/// `None` on other architectures.
pub fn cpu_family() -> Option<u32> {
    #[cfg(target_arch = "x86_64")]
    {
        // CPUID leaf 1 exists on every x86-64 CPU.
        let eax = std::arch::x86_64::__cpuid(1).eax;
        let base = (eax >> 8) & 0xf;
        Some(if base == 0xf { base + ((eax >> 20) & 0xff) } else { base })
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        None
    }
}

/// Whether the vendor is AMD or Hygon (whose microcoded instructions differ from Intel's).
fn amd_like(vendor: &[u8; 12]) -> bool {
    vendor == b"AuthenticAMD" || vendor == b"HygonGenuine"
}

/// Whether `pext`/`pdep` are fast on a CPU of this vendor and family: everywhere except AMD
/// (and Hygon) before Zen 3 (family 0x19), where they are microcoded (tens of cycles,
/// depending on the mask).
pub fn pext_is_fast_on(vendor: &[u8; 12], family: u32) -> bool {
    !(amd_like(vendor) && family < 0x19)
}

/// Whether `pext`/`pdep` are fast on this CPU ([`pext_is_fast_on`]; `false` when the vendor or
/// family is unknown).
pub fn pext_is_fast() -> bool {
    match (cpu_vendor(), cpu_family()) {
        (Some(vendor), Some(family)) => pext_is_fast_on(&vendor, family),
        _ => false,
    }
}

/// Whether CPUs of this vendor (the CPUID vendor string) microcode their AVX2 gathers: AMD and
/// Hygon, where an 8-lane `vpgatherdd` is 39 micro-ops on Zen 3 (uops.info; 5 on Intel since
/// Skylake), so scalar table reads beat a gather.
pub fn gathers_microcoded_on(vendor: &[u8; 12]) -> bool {
    amd_like(vendor)
}

/// Whether this CPU's gathers are microcoded ([`gathers_microcoded_on`]; `false` when the
/// vendor is unknown).
pub fn gathers_microcoded() -> bool {
    cpu_vendor().is_some_and(|v| gathers_microcoded_on(&v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cached_features_are_the_detected_ones() {
        assert_eq!(*cpu_features(), CpuFeatures::detect());
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn features_match_the_standard_library() {
        use std::is_x86_feature_detected as has;
        let f = cpu_features();
        let pairs = [
            (f.avx2, has!("avx2")),
            (f.bmi1, has!("bmi1")),
            (f.bmi2, has!("bmi2")),
            (f.lzcnt, has!("lzcnt")),
            (f.popcnt, has!("popcnt")),
            (f.avx512f, has!("avx512f")),
            (f.avx512vl, has!("avx512vl")),
            (f.avx512bw, has!("avx512bw")),
            (f.avx512cd, has!("avx512cd")),
            (f.avx512vbmi, has!("avx512vbmi")),
            (f.avx512vbmi2, has!("avx512vbmi2")),
            (f.avx512vpopcntdq, has!("avx512vpopcntdq")),
        ];
        for (i, (ours, std)) in pairs.into_iter().enumerate() {
            assert_eq!(ours, std, "feature {i}");
        }
        assert_eq!(
            f.avx2_set(),
            has!("avx2") && has!("bmi1") && has!("lzcnt") && has!("popcnt")
        );
        assert_eq!(f.avx512_set(), has!("avx512f") && has!("avx512vl") && has!("avx512cd"));
        assert_eq!(
            f.avx512_icl_set(),
            has!("avx512bw") && has!("avx512vbmi2") && has!("avx512vpopcntdq")
        );
    }

    #[test]
    fn sets_need_every_member() {
        let all = CpuFeatures {
            avx2: true,
            bmi1: true,
            bmi2: true,
            lzcnt: true,
            popcnt: true,
            avx512f: true,
            avx512vl: true,
            avx512bw: true,
            avx512cd: true,
            avx512vbmi: true,
            avx512vbmi2: true,
            avx512vpopcntdq: true,
        };
        assert!(all.avx2_set() && all.avx512_set() && all.avx512_icl_set());
        let without = |f: fn(&mut CpuFeatures)| {
            let mut c = all;
            f(&mut c);
            c
        };
        for c in [
            without(|c| c.avx2 = false),
            without(|c| c.bmi1 = false),
            without(|c| c.lzcnt = false),
            without(|c| c.popcnt = false),
        ] {
            assert!(!c.avx2_set());
        }
        for c in [
            without(|c| c.avx512f = false),
            without(|c| c.avx512vl = false),
            without(|c| c.avx512cd = false),
        ] {
            assert!(!c.avx512_set());
        }
        for c in [
            without(|c| c.avx512bw = false),
            without(|c| c.avx512vbmi2 = false),
            without(|c| c.avx512vpopcntdq = false),
        ] {
            assert!(!c.avx512_icl_set());
        }
        assert!(!CpuFeatures::default().avx2_set());
    }

    #[test]
    fn vendor_rules() {
        assert!(pext_is_fast_on(b"GenuineIntel", 6));
        assert!(!pext_is_fast_on(b"AuthenticAMD", 0x17));
        assert!(pext_is_fast_on(b"AuthenticAMD", 0x19));
        assert!(!pext_is_fast_on(b"HygonGenuine", 0x18));
        assert!(pext_is_fast_on(b"HygonGenuine", 0x19));
        assert!(gathers_microcoded_on(b"AuthenticAMD"));
        assert!(gathers_microcoded_on(b"HygonGenuine"));
        assert!(!gathers_microcoded_on(b"GenuineIntel"));
        assert!(!gathers_microcoded_on(b"AuthenticAMx"));
    }
}
