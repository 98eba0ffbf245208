#if canImport(Glibc)
  import Glibc
#endif

/// A value shared between threads, reached only under a lock.
///
/// The lock is a pthread mutex, allocated once and never moved (a Swift property's address is
/// not stable enough for one). `Synchronization.Mutex` would do the same job, but on Linux it
/// waits with raw futex calls that ThreadSanitizer cannot see, so every access under it reads as
/// a race; a pthread mutex is intercepted, and `swift test --sanitize=thread` stays meaningful.
///
/// The value is kept behind a pointer too, not in a stored `var`: the mutex already makes each
/// access exclusive, and a class's `var` would have every access checked again at run time
/// (`swift_beginAccess`), which cost more than the lock itself on the message loop's path.
package final class Locked<Value>: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let value: UnsafeMutablePointer<Value>

  package init(_ value: Value) {
    self.value = UnsafeMutablePointer.allocate(capacity: 1)
    self.value.initialize(to: value)
    mutex = UnsafeMutablePointer.allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
    value.deinitialize(count: 1)
    value.deallocate()
  }

  package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
    -> Result
  {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value.pointee)
  }
}
