//! A Biki topic plugin in Rust, through the C ABI alone (Sources/BikiPluginABI/include/
//! biki_plugin.h): no crates, no Swift, no C. Built with rustc as a C dynamic library:
//!
//!     rustc --edition 2021 --crate-type cdylib -O Plugins/floors-rust/floors.rs -o libbiki-floors.so
//!
//! Its one topic asks which floor, 1階 to 20階. The readings are Biki's own, asked of the
//! host's reading engine ("biki.readings.1"), so 3階 is さんがい (and さんかい) and 8階 はっかい
//! (and はちかい) without this file spelling a sound change. A host without that extension is
//! refused in `init`, with a message naming it.

// Only what Rust 1.63 (Debian 12's rustc) has: no C string literals.
use std::ffi::{c_void, CStr};
use std::os::raw::c_char;
use std::ptr;

// The structs of biki_plugin.h, field for field (#[repr(C)] lays them out as C does).

#[repr(C)]
pub struct Writer {
    size: u32,
    context: *mut c_void,
    write: Option<unsafe extern "C" fn(*const Writer, *const c_char, usize) -> i32>,
}

#[repr(C)]
pub struct Call {
    size: u32,
    output: *const Writer,
    error: *const Writer,
}

#[repr(C)]
pub struct ParameterList {
    size: u32,
    element_size: u32,
    count: usize,
    entries: *const c_void,
}

#[repr(C)]
pub struct Host {
    size: u32,
    abi_version: u32,
    name: *const c_char,
    version: *const c_char,
    host_data: *mut c_void,
    get_extension: Option<unsafe extern "C" fn(*const Host, *const c_char) -> *const c_void>,
}

#[repr(C)]
pub struct HostReadings {
    size: u32,
    read_number:
        Option<unsafe extern "C" fn(*const Host, u64, *const c_char, *const c_char, *const Call) -> i32>,
}

#[repr(C)]
pub struct Descriptor {
    size: u32,
    abi_version: u32,
    id: *const c_char,
    name: *const c_char,
    version: *const c_char,
    flags: u32,
    init: Option<unsafe extern "C" fn(*const Host, *const Call) -> i32>,
    deinit: Option<unsafe extern "C" fn()>,
    get_extension: Option<unsafe extern "C" fn(*const c_char) -> *const c_void>,
    describe: Option<unsafe extern "C" fn(*const Call) -> i32>,
    generate: Option<unsafe extern "C" fn(*const c_char, *const ParameterList, u64, *const Call) -> i32>,
    question_count: Option<unsafe extern "C" fn(*const c_char, *const ParameterList, *mut u64, *const Call) -> i32>,
}

// The descriptor holds pointers, which Rust will not share between threads unless told: it is
// constant, and Biki only reads it.
unsafe impl Sync for Descriptor {}

const ABI_VERSION: u32 = 1;
const STATUS_OK: i32 = 0;
const STATUS_UNKNOWN_TOPIC: i32 = 1;
const STATUS_INVALID_PARAMETER: i32 = 2;
const STATUS_INTERNAL_ERROR: i32 = 4;
const STATUS_OUTPUT_REFUSED: i32 = 5;
const FLOORS: u64 = 20;

static DESCRIPTOR: Descriptor = Descriptor {
    size: std::mem::size_of::<Descriptor>() as u32,
    abi_version: ABI_VERSION,
    id: b"floors\0".as_ptr() as *const c_char,
    name: b"Floors (Rust)\0".as_ptr() as *const c_char,
    version: b"1.0.0\0".as_ptr() as *const c_char,
    flags: 0,
    init: Some(init),
    deinit: None,
    get_extension: None,
    describe: Some(describe),
    generate: Some(generate),
    question_count: None,
};

// Set once by `init`, before any other call, on one thread (the ABI's promise); read after.
static mut HOST: *const Host = ptr::null();
static mut READINGS: *const HostReadings = ptr::null();

/// Writes `text` through a writer Biki gave; false when Biki refused it.
unsafe fn put(writer: *const Writer, text: &str) -> bool {
    match writer.as_ref().and_then(|w| w.write) {
        Some(write) => write(writer, text.as_ptr() as *const c_char, text.len()) == 0,
        None => false,
    }
}

unsafe fn fail(call: *const Call, status: i32, message: &str) -> i32 {
    if let Some(call) = call.as_ref() {
        put(call.error, message);
    }
    status
}

/// A writer of the plugin's own, into a Vec, for calls into the host.
unsafe extern "C" fn collect(writer: *const Writer, bytes: *const c_char, length: usize) -> i32 {
    let buffer = &mut *((*writer).context as *mut Vec<u8>);
    if buffer.len() + length > 4096 {
        return 1;
    }
    if length > 0 {
        buffer.extend_from_slice(std::slice::from_raw_parts(bytes as *const u8, length));
    }
    0
}

#[no_mangle]
pub extern "C" fn biki_plugin_entry(host: *const Host) -> *const Descriptor {
    match unsafe { host.as_ref() } {
        Some(host) if host.abi_version == ABI_VERSION => &DESCRIPTOR,
        _ => ptr::null(),
    }
}

unsafe extern "C" fn init(host: *const Host, call: *const Call) -> i32 {
    let lookup = match host.as_ref().and_then(|h| h.get_extension) {
        Some(lookup) => lookup,
        None => return fail(call, STATUS_INTERNAL_ERROR, "this Biki offers no extensions"),
    };
    let readings = lookup(host, b"biki.readings.1\0".as_ptr() as *const c_char) as *const HostReadings;
    // The field must be there: `size` says how much of the struct this Biki filled.
    let has_reader = readings.as_ref().map_or(false, |r| {
        r.size as usize >= std::mem::size_of::<HostReadings>() && r.read_number.is_some()
    });
    if !has_reader {
        return fail(call, STATUS_INTERNAL_ERROR, "floors needs the host extension biki.readings.1");
    }
    HOST = host;
    READINGS = readings;
    STATUS_OK
}

unsafe extern "C" fn describe(call: *const Call) -> i32 {
    let description = r#"{"topics": [{"id": "floors", "title": "Floors (階)", "description": "Which floor: 1階 to 20階, with 3階 さんがい and 8階 はっかい.", "category": "counter", "skills": ["reading", "listening", "kana"], "questionCount": 20, "parameters": []}]}"#;
    if put((*call).output, description) { STATUS_OK } else { STATUS_OUTPUT_REFUSED }
}

/// 1 to 99 in kanji numerals: 十三, 二十.
fn kanji(number: u64) -> String {
    const DIGITS: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
    let (tens, ones) = ((number / 10) as usize, (number % 10) as usize);
    let mut text = String::new();
    if tens > 1 {
        text.push_str(DIGITS[tens]);
    }
    if tens > 0 {
        text.push('十');
    }
    text.push_str(DIGITS[ones]);
    text
}

unsafe extern "C" fn generate(
    topic_id: *const c_char, parameters: *const ParameterList, seed: u64, call: *const Call,
) -> i32 {
    if topic_id.is_null() || CStr::from_ptr(topic_id).to_bytes() != b"floors" {
        return fail(call, STATUS_UNKNOWN_TOPIC, "floors has one topic, floors");
    }
    if parameters.as_ref().map_or(false, |list| list.count > 0) {
        return fail(call, STATUS_INVALID_PARAMETER, "floors takes no parameters");
    }
    let floor = seed % FLOORS + 1;
    // Biki's readings of the floor: a JSON array of strings, standard first.
    let mut result: Vec<u8> = Vec::new();
    let mut error: Vec<u8> = Vec::new();
    let result_writer = Writer { size: std::mem::size_of::<Writer>() as u32, context: &mut result as *mut _ as *mut c_void, write: Some(collect) };
    let error_writer = Writer { size: std::mem::size_of::<Writer>() as u32, context: &mut error as *mut _ as *mut c_void, write: Some(collect) };
    let asked = Call { size: std::mem::size_of::<Call>() as u32, output: &result_writer, error: &error_writer };
    let read = match READINGS.as_ref().and_then(|r| r.read_number) {
        Some(read) => read,
        None => return fail(call, STATUS_INTERNAL_ERROR, "init did not run"),
    };
    if read(HOST, floor, "階\0".as_ptr() as *const c_char, ptr::null(), &asked) != STATUS_OK {
        let why = String::from_utf8_lossy(&error).into_owned();
        return fail(call, STATUS_INTERNAL_ERROR, &format!("Biki could not read {floor}階: {why}"));
    }
    let readings = match std::str::from_utf8(&result) {
        Ok(text) if text.starts_with("[\"") => text.to_owned(),
        _ => return fail(call, STATUS_INTERNAL_ERROR, "Biki's readings were not a list of strings"),
    };
    // The first reading, standard: the array's first string (Biki writes no escapes in kana).
    let spoken = readings[2..].split('"').next().unwrap_or("");
    let question = format!(
        r#"{{"display": "{floor}階", "kanjiDisplay": "{}階", "spoken": "{spoken}", "readings": {readings}, "answer": {{"value": {floor}, "postfix": "階"}}, "number": {{"value": {floor}, "counter": "階"}}}}"#,
        kanji(floor)
    );
    if put((*call).output, &question) { STATUS_OK } else { STATUS_OUTPUT_REFUSED }
}
