// One writer for every output file of the suite (results .h5, trace JSON, machine files,
// CSV, meshes, partitions): never writes through a symbolic link, never replaces what is not
// a regular file, and never leaves a partial file or, where it can, a temporary behind.
//
//   OutputFile out(path, "results file");          // refuses, cleans stale temps
//   ... create out.temp_path() EXCLUSIVELY (O_CREAT|O_EXCL|O_NOFOLLOW, or H5F_ACC_EXCL),
//       write it, close it ...
//   out.commit();                                   // fsync + rename over out.path()
//
// - A path whose last component is a symbolic link is refused, dangling or not:
//   InputError(path, "", "cannot write <what>: it is a symbolic link (to T); refusing to
//   write through it; give the real path"). Following it would let whoever can plant a link
//   make us (as root: any file) overwrite its target. Links among the directories above are
//   resolved by the kernel as usual.
// - An existing path that is not a regular file (character or block device, FIFO,
//   directory, socket) is refused with InputError(path, "", "cannot write <what>: it is a
//   character device, not a regular file; refusing to replace it"): as root,
//   `--results /dev/null` must not turn the device node into an HDF5 file. commit() checks
//   both again just before the rename.
// - The temporary is "<path>.tmp.<pid>" in the path's directory (rename is atomic only
//   within one file system). The constructor removes a leftover of that exact name (a
//   dead process with our pid, or an earlier writer of ours) so the caller can create it
//   exclusively, and removes every "<path>.tmp.<pid>" regular file whose pid no longer
//   runs on this host (kill(pid, 0) fails with ESRCH). Limitation: a writer of the same
//   target on ANOTHER host sharing the directory (NFS) looks dead here; its rename would
//   then fail with a clear error, never a partial file.
// - The temporary is removed by the destructor unless commit() succeeded (every exception),
//   and by std::exit and by SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGABRT, SIGXCPU and SIGXFSZ
//   (src/temporary_cleanup.hpp: mpiexec forwards Ctrl-C and SIGTERM to every rank).
//   SIGKILL cannot be caught (kill -9, and MPICH's launcher ending the other ranks after one
//   fails): that temporary stays until the next write of the same path removes it. A rank
//   writing while the others wait does so through write_on_root (write_on_root.hpp), so that
//   a signal sent to the job does not end a waiting rank first, which would have the launcher
//   SIGKILL the writer before it removed its temporary.
// One OutputFile per target at a time in a process (they would share the temporary).
#pragma once
#include <string>
#include <string_view>

namespace instrument {

class OutputFile {
 public:
  // `what` names the output in errors: "results file", "trace", "machine file", "CSV".
  OutputFile(std::string path, std::string what);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  const std::string& path() const { return path_; }      // as given, and what commit() replaces
  const std::string& temp_path() const { return temp_; }  // write here
  // fsync the temporary, rename it over the target, fsync the directory; throws
  // InputError(path, "", "cannot write <what>: ...") on failure (the temporary is then
  // removed by the destructor). A second call does nothing.
  void commit();

 private:
  std::string path_, what_, temp_;
  int cleanup_slot_ = -1;  // armed for removal on a signal or std::exit until committed
  bool committed_ = false;
};

// The whole content as one file through OutputFile (temporary opened with O_EXCL|O_NOFOLLOW).
// OutputFile's refusals (symbolic link, device...) come before a byte is written.
void write_text_output(const std::string& path, const std::string& what,
                       std::string_view content);

}  // namespace instrument
