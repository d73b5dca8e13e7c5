// One writer for every output file of the suite (results .h5, trace JSON, machine files,
// CSV): never replaces what is not a regular file, follows symlinks, and never leaves a
// partial file or a temporary behind.
//
//   OutputFile out(path, "results file");          // resolves, refuses, cleans stale temps
//   ... create out.temp_path() EXCLUSIVELY (O_CREAT|O_EXCL|O_NOFOLLOW, or H5F_ACC_EXCL),
//       write it, close it ...
//   out.commit();                                   // fsync + rename over out.target()
//
// - Symlinks are followed (up to 40 hops, relative links against the link's directory):
//   the file written is the link's final target and the link itself stays. A dangling
//   symlink's target is created.
// - An existing target that is not a regular file (character or block device, FIFO,
//   directory, socket) is refused with InputError(path, "", "cannot write <what>: ... is a
//   character device, not a regular file; refusing to replace it"): as root,
//   `--results /dev/null` must not turn the device node into an HDF5 file. commit() checks
//   again just before the rename.
// - The temporary is "<target>.tmp.<pid>" in the target's directory (rename is atomic only
//   within one file system). The constructor removes a leftover of that exact name (a
//   dead process with our pid, or an earlier writer of ours) so the caller can create it
//   exclusively, and removes every "<target>.tmp.<pid>" regular file whose pid no longer
//   runs on this host (kill(pid, 0) fails with ESRCH): a process killed during a write
//   leaves nothing after the next write of the same target. Limitation: a writer of the
//   same target on ANOTHER host sharing the directory (NFS) looks dead here; its rename
//   would then fail with a clear error, never a partial file.
// - The destructor removes the temporary unless commit() succeeded.
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

  const std::string& path() const { return path_; }      // as given
  const std::string& target() const { return target_; }  // the resolved path
  const std::string& temp_path() const { return temp_; }  // write here
  // fsync the temporary, rename it over the target, fsync the directory; throws
  // InputError(path, "", "cannot write <what>: ...") on failure (the temporary is then
  // removed by the destructor). A second call does nothing.
  void commit();

 private:
  std::string path_, what_, target_, temp_;
  bool committed_ = false;
};

// The whole content as one file through OutputFile (temporary opened with O_EXCL|O_NOFOLLOW).
void write_text_output(const std::string& path, const std::string& what,
                       std::string_view content);

}  // namespace instrument
