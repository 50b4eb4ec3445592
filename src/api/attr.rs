//! Attributes of the cuBLASLt objects: one table per object type gives each attribute's id,
//! C type, default and value check, so that Set/Get validation and round-trips are one
//! piece of code for all three objects.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU32, Ordering};

use crate::error::Result;
use crate::{invalid, unsupported};

/// The C type of an attribute's value; its size is what Set/Get require exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttrType {
    I8,
    U16,
    I32,
    U32,
    I64,
    U64,
    F32,
    /// A pointer (`void *`): pointer-sized.
    Ptr,
}

impl AttrType {
    pub fn size(self) -> usize {
        match self {
            AttrType::I8 => 1,
            AttrType::U16 => 2,
            AttrType::I32 | AttrType::U32 | AttrType::F32 => 4,
            AttrType::I64 | AttrType::U64 => 8,
            AttrType::Ptr => std::mem::size_of::<usize>(),
        }
    }

    pub fn c_name(self) -> &'static str {
        match self {
            AttrType::I8 => "int8_t",
            AttrType::U16 => "uint16_t",
            AttrType::I32 => "int32_t",
            AttrType::U32 => "uint32_t",
            AttrType::I64 => "int64_t",
            AttrType::U64 => "uint64_t",
            AttrType::F32 => "float",
            AttrType::Ptr => "void *",
        }
    }
}

/// An attribute value as stored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AttrValue {
    I8(i8),
    U16(u16),
    I32(i32),
    U32(u32),
    I64(i64),
    U64(u64),
    F32(f32),
    Ptr(usize),
}

impl AttrValue {
    pub fn ty(self) -> AttrType {
        match self {
            AttrValue::I8(_) => AttrType::I8,
            AttrValue::U16(_) => AttrType::U16,
            AttrValue::I32(_) => AttrType::I32,
            AttrValue::U32(_) => AttrType::U32,
            AttrValue::I64(_) => AttrType::I64,
            AttrValue::U64(_) => AttrType::U64,
            AttrValue::F32(_) => AttrType::F32,
            AttrValue::Ptr(_) => AttrType::Ptr,
        }
    }

    /// Decodes native-endian bytes; `bytes.len()` must be the type's size.
    pub fn decode(ty: AttrType, bytes: &[u8]) -> Result<AttrValue> {
        if bytes.len() != ty.size() {
            return Err(invalid!(
                "attribute size {} != sizeof({}) = {}",
                bytes.len(),
                ty.c_name(),
                ty.size()
            ));
        }
        let mut b = [0u8; 8];
        b[..bytes.len()].copy_from_slice(bytes);
        let b4 = [b[0], b[1], b[2], b[3]];
        Ok(match ty {
            AttrType::I8 => AttrValue::I8(b[0] as i8),
            AttrType::U16 => AttrValue::U16(u16::from_ne_bytes([b[0], b[1]])),
            AttrType::I32 => AttrValue::I32(i32::from_ne_bytes(b4)),
            AttrType::U32 => AttrValue::U32(u32::from_ne_bytes(b4)),
            AttrType::F32 => AttrValue::F32(f32::from_ne_bytes(b4)),
            AttrType::I64 => AttrValue::I64(i64::from_ne_bytes(b)),
            AttrType::U64 => AttrValue::U64(u64::from_ne_bytes(b)),
            AttrType::Ptr => {
                let mut p = [0u8; std::mem::size_of::<usize>()];
                p.copy_from_slice(bytes);
                AttrValue::Ptr(usize::from_ne_bytes(p))
            }
        })
    }

    /// Native-endian bytes; the first `self.ty().size()` are the value.
    pub fn encode(self) -> [u8; 8] {
        let mut b = [0u8; 8];
        match self {
            AttrValue::I8(v) => b[0] = v as u8,
            AttrValue::U16(v) => b[..2].copy_from_slice(&v.to_ne_bytes()),
            AttrValue::I32(v) => b[..4].copy_from_slice(&v.to_ne_bytes()),
            AttrValue::U32(v) => b[..4].copy_from_slice(&v.to_ne_bytes()),
            AttrValue::F32(v) => b[..4].copy_from_slice(&v.to_ne_bytes()),
            AttrValue::I64(v) => b.copy_from_slice(&v.to_ne_bytes()),
            AttrValue::U64(v) => b.copy_from_slice(&v.to_ne_bytes()),
            AttrValue::Ptr(v) => {
                let p = v.to_ne_bytes();
                b[..p.len()].copy_from_slice(&p);
            }
        }
        b
    }

    /// The value as an integer (pointers as addresses, floats truncated: only used for
    /// integer-typed attributes).
    pub fn as_i128(self) -> i128 {
        match self {
            AttrValue::I8(v) => v as i128,
            AttrValue::U16(v) => v as i128,
            AttrValue::I32(v) => v as i128,
            AttrValue::U32(v) => v as i128,
            AttrValue::I64(v) => v as i128,
            AttrValue::U64(v) => v as i128,
            AttrValue::F32(v) => v as i128,
            AttrValue::Ptr(v) => v as i128,
        }
    }

    pub fn is_default_zero(self) -> bool {
        match self {
            AttrValue::F32(v) => v == 0.0,
            v => v.as_i128() == 0,
        }
    }
}

/// CUDA 13.0's emulated compute types, which `types::compute_type` does not list.
pub const COMPUTE_32F_EMULATED_16BFX9: i32 = 78;
pub const COMPUTE_64F_EMULATED_FIXEDPOINT: i32 = 79;

/// Every cublasComputeType_t of CUDA 13.0.
pub fn compute_type_is_known(v: i32) -> bool {
    crate::types::compute_type::is_known(v)
        || v == COMPUTE_32F_EMULATED_16BFX9
        || v == COMPUTE_64F_EMULATED_FIXEDPOINT
}

/// What a value must satisfy to be accepted by Set (INVALID_VALUE otherwise).
#[derive(Clone, Copy, Debug)]
pub enum Check {
    Any,
    /// The integer value is in `lo..=hi`.
    Range(i64, i64),
    /// One of the listed values.
    OneOf(&'static [i64]),
    /// A known cudaDataType_t, or -1 when `allow_default`.
    DataType {
        allow_default: bool,
    },
    /// A known cublasComputeType_t.
    ComputeType,
    /// A known cublasLtEpilogue_t.
    Epilogue,
    /// A finite, non-negative float.
    NonNegativeF32,
}

impl Check {
    pub fn accepts(self, v: AttrValue) -> bool {
        let i = v.as_i128();
        match self {
            Check::Any => true,
            Check::Range(lo, hi) => (lo as i128..=hi as i128).contains(&i),
            Check::OneOf(list) => list.iter().any(|&x| x as i128 == i),
            Check::DataType { allow_default } => {
                (allow_default && i == -1)
                    || (i32::try_from(i).is_ok_and(crate::types::cuda_data_type::is_known))
            }
            Check::ComputeType => i32::try_from(i).is_ok_and(compute_type_is_known),
            Check::Epilogue => i32::try_from(i).is_ok_and(crate::types::epilogue::is_known),
            Check::NonNegativeF32 => match v {
                AttrValue::F32(f) => f.is_finite() && f >= 0.0,
                _ => false,
            },
        }
    }
}

/// One attribute of an object type.
#[derive(Clone, Copy, Debug)]
pub struct AttrDef {
    pub id: i32,
    /// The C constant, for logs.
    pub name: &'static str,
    /// Its default; its variant is the attribute's type.
    pub default: AttrValue,
    pub check: Check,
}

/// An object type's attribute table, as the storage block of its objects needs it
/// (implemented by `attr_block!`).
pub trait TableOf {
    fn table() -> &'static [AttrDef];
    /// Each attribute's first 32-bit cell in the block (`slots`), in table order.
    fn slots() -> &'static [u16];
}

/// `attr_block!(Marker, Block, TABLE, CELLS, "what")`: the marker type `Marker` tying the
/// attribute table `TABLE` to its objects' storage, and `Block`, that storage: an `AttrCell` of
/// `CELLS` 32-bit cells (the C header's struct of the object, `uint64_t data[CELLS / 2]`).
macro_rules! attr_block {
    ($marker:ident, $block:ident, $table:path, $cells:literal, $what:literal) => {
        #[doc = concat!("The attribute table of a ", $what, ", for its storage block.")]
        pub struct $marker;

        impl $crate::api::attr::TableOf for $marker {
            fn table() -> &'static [$crate::api::attr::AttrDef] {
                &$table
            }
            fn slots() -> &'static [u16] {
                static S: once_cell::sync::Lazy<Vec<u16>> =
                    once_cell::sync::Lazy::new(|| $crate::api::attr::slots(&$table, $cells));
                &S
            }
        }

        #[doc = concat!("The storage of a ", $what, ": ", stringify!($cells), " cells of 4 bytes.")]
        pub type $block = $crate::api::attr::AttrCell<$marker, $cells>;
    };
}
pub(crate) use attr_block;

/// The first word of a block made by a Create function.
pub const TAG_CREATED: u64 = u64::from_le_bytes(*b"dgLtNew\0");
/// The first word of a block an Init function wrote into the caller's storage.
pub const TAG_INITIALISED: u64 = u64::from_le_bytes(*b"dgLtIni\0");

/// The storage of a descriptor, a layout or a preference: `N` 32-bit cells, 8-aligned,
/// exactly the size of the C header's opaque struct (`uint64_t data[N / 2]`), so that
/// cuBLASLt's `*Init` functions can build one in the caller's storage and a Create function
/// the same on the heap. Cells 0-1 hold a tag (`TAG_CREATED` / `TAG_INITIALISED`), then each
/// attribute at its natural width (`slots`: 8-byte ones in two cells, the rest in one). Plain
/// data, as cuBLASLt's: a copy of the bytes is an equal, independent object. Every access is
/// a relaxed atomic one, so a caller setting an attribute while another thread reads it (a
/// race in cuBLASLt too) gets some value, never undefined behaviour; an 8-byte value so raced
/// may tear.
#[repr(C, align(8))]
pub struct AttrCell<T: TableOf, const N: usize> {
    cells: [AtomicU32; N],
    _table: PhantomData<T>,
}

impl<T: TableOf, const N: usize> std::fmt::Debug for AttrCell<T, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut m = f.debug_map();
        m.entry(&"tag", &self.tag());
        for (i, d) in T::table().iter().enumerate() {
            m.entry(&d.name, &self.load(i));
        }
        m.finish()
    }
}

impl<T: TableOf, const N: usize> AttrCell<T, N> {
    /// A block holding every attribute's default under `tag`.
    pub fn new(tag: u64) -> Self {
        let cell = AttrCell {
            cells: std::array::from_fn(|_| AtomicU32::new(0)),
            _table: PhantomData,
        };
        for (i, d) in T::table().iter().enumerate() {
            cell.store(i, d.default);
        }
        cell.set_tag(tag);
        cell
    }

    fn load_u64(&self, c: usize) -> u64 {
        let lo = self.cells[c].load(Ordering::Relaxed) as u64;
        let hi = self.cells[c + 1].load(Ordering::Relaxed) as u64;
        lo | (hi << 32)
    }

    fn store_u64(&self, c: usize, v: u64) {
        self.cells[c].store(v as u32, Ordering::Relaxed);
        self.cells[c + 1].store((v >> 32) as u32, Ordering::Relaxed);
    }

    /// Attribute `i` (its index in the table).
    fn load(&self, i: usize) -> AttrValue {
        let c = T::slots()[i] as usize;
        let w = || self.cells[c].load(Ordering::Relaxed);
        match T::table()[i].default.ty() {
            AttrType::I8 => AttrValue::I8(w() as u8 as i8),
            AttrType::U16 => AttrValue::U16(w() as u16),
            AttrType::I32 => AttrValue::I32(w() as i32),
            AttrType::U32 => AttrValue::U32(w()),
            AttrType::F32 => AttrValue::F32(f32::from_bits(w())),
            AttrType::I64 => AttrValue::I64(self.load_u64(c) as i64),
            AttrType::U64 => AttrValue::U64(self.load_u64(c)),
            AttrType::Ptr => AttrValue::Ptr(self.load_u64(c) as usize),
        }
    }

    /// Writes attribute `i`; `v` is of its type.
    fn store(&self, i: usize, v: AttrValue) {
        let c = T::slots()[i] as usize;
        let w = |x: u32| self.cells[c].store(x, Ordering::Relaxed);
        match v {
            AttrValue::I8(x) => w(x as u8 as u32),
            AttrValue::U16(x) => w(x as u32),
            AttrValue::I32(x) => w(x as u32),
            AttrValue::U32(x) => w(x),
            AttrValue::F32(x) => w(x.to_bits()),
            AttrValue::I64(x) => self.store_u64(c, x as u64),
            AttrValue::U64(x) => self.store_u64(c, x),
            AttrValue::Ptr(x) => self.store_u64(c, x as u64),
        }
    }

    /// Set from the caller's bytes (size and value checked).
    pub fn set_attribute(&self, id: i32, bytes: &[u8]) -> Result<()> {
        let def = def_of(T::table(), id)?;
        let v = AttrValue::decode(def.default.ty(), bytes)
            .map_err(|e| invalid!("{}: {}", def.name, e))?;
        self.set(id, v)
    }

    /// Sets attribute `id`; the value's type must be the attribute's (INVALID_VALUE
    /// otherwise, or for a value its check refuses).
    pub fn set(&self, id: i32, v: AttrValue) -> Result<()> {
        let i = index_of(T::table(), id)?;
        check_value(&T::table()[i], v)?;
        self.store(i, v);
        Ok(())
    }

    pub fn get(&self, id: i32) -> Result<AttrValue> {
        Ok(self.load(index_of(T::table(), id)?))
    }

    /// Integer value of an attribute the table is known to have (a missing id is a bug).
    /// Each read is atomic; there is no lock, as in cuBLASLt (a call reads ~50 values).
    pub fn int(&self, id: i32) -> i128 {
        match index_of(T::table(), id) {
            Ok(i) => self.load(i).as_i128(),
            Err(_) => panic!("attribute {id} is not in this object's table"),
        }
    }

    /// NOT_SUPPORTED unless every attribute listed still has a zero value.
    pub fn require_zero(&self, ids: &[i32], why: &str) -> Result<()> {
        for &id in ids {
            let i = index_of(T::table(), id)?;
            let v = self.load(i);
            if !v.is_default_zero() {
                return Err(unsupported!("{} = {:?}: {}", T::table()[i].name, v, why));
            }
        }
        Ok(())
    }
}

/// A storage block's tag (`TAG_CREATED` / `TAG_INITIALISED`; anything else: not a live
/// object), whatever its table: what the C boundary checks and sets.
pub trait Tagged {
    fn tag(&self) -> u64;
    fn set_tag(&self, tag: u64);
}

impl<T: TableOf, const N: usize> Tagged for AttrCell<T, N> {
    fn tag(&self) -> u64 {
        self.load_u64(0)
    }

    fn set_tag(&self, tag: u64) {
        self.store_u64(0, tag)
    }
}

/// Each attribute's first cell in a block of `cells` 32-bit cells after the two-cell tag:
/// 8-byte values first (in two cells each, so they stay 8-aligned), then the rest in one cell
/// each, in table order. Panics if they do not fit (a table grown past its C struct: the
/// tests below catch it).
pub fn slots(table: &[AttrDef], cells: usize) -> Vec<u16> {
    let mut out = vec![0u16; table.len()];
    let mut next = 2usize;
    for wide in [true, false] {
        for (i, d) in table.iter().enumerate() {
            if (d.default.ty().size() == 8) == wide {
                out[i] = next as u16;
                next += if wide { 2 } else { 1 };
            }
        }
    }
    assert!(
        next <= cells,
        "{} needs {next} cells of 4 bytes, its block has {cells}",
        table[0].name
    );
    out
}

fn index_of(table: &[AttrDef], id: i32) -> Result<usize> {
    // Tables are sorted by id (checked by the tests below): a call's descriptors are read
    // ~50 times per deepgemmLtMatmul, where a linear scan cost ~0.3 us.
    table
        .binary_search_by_key(&id, |d| d.id)
        .map_err(|_| invalid!("unknown attribute {id}"))
}

fn def_of(table: &'static [AttrDef], id: i32) -> Result<&'static AttrDef> {
    Ok(&table[index_of(table, id)?])
}

/// INVALID_VALUE unless `v` has `def`'s type and passes its check.
fn check_value(def: &AttrDef, v: AttrValue) -> Result<()> {
    if v.ty() != def.default.ty() {
        return Err(invalid!(
            "{}: value of type {} for an attribute of type {}",
            def.name,
            v.ty().c_name(),
            def.default.ty().c_name()
        ));
    }
    if !def.check.accepts(v) {
        return Err(invalid!("{}: invalid value {:?}", def.name, v));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every table fits the C struct its objects live in (`slots` panics otherwise), 8-byte
    /// values 8-aligned, no two attributes in one cell, the tag's two cells free.
    #[test]
    fn every_table_fits_its_c_struct() {
        use crate::api::{matmul_desc as md, matrix_layout as ml, preference as pr};
        use std::mem::size_of;
        for (table, s, cells) in [
            (
                &md::TABLE[..],
                md::DescTable::slots(),
                size_of::<md::DescBlock>() / 4,
            ),
            (
                &ml::TABLE[..],
                ml::LayoutTable::slots(),
                size_of::<ml::LayoutBlock>() / 4,
            ),
            (
                &pr::TABLE[..],
                pr::PrefTable::slots(),
                size_of::<pr::PrefBlock>() / 4,
            ),
        ] {
            let mut used = vec![false; cells];
            used[0] = true;
            used[1] = true;
            for (d, &c) in table.iter().zip(s) {
                let width = d.default.ty().size().div_ceil(4);
                assert!(width == 1 || c % 2 == 0, "{} not 8-aligned", d.name);
                for u in &mut used[c as usize..c as usize + width] {
                    assert!(!*u, "{} overlaps", d.name);
                    *u = true;
                }
            }
        }
    }

    #[test]
    fn tables_are_sorted_by_id_and_every_id_is_found() {
        for table in [
            &crate::api::matmul_desc::TABLE[..],
            &crate::api::matrix_layout::TABLE[..],
            &crate::api::preference::TABLE[..],
        ] {
            assert!(
                table.windows(2).all(|w| w[0].id < w[1].id),
                "{}",
                table[0].name
            );
            for (i, d) in table.iter().enumerate() {
                assert_eq!(index_of(table, d.id).unwrap(), i, "{}", d.name);
            }
            let last = table.last().unwrap().id;
            for id in (-1..=last + 1).filter(|id| table.iter().all(|d| d.id != *id)) {
                assert!(index_of(table, id).is_err(), "{id} in {}", table[0].name);
            }
        }
    }
}
