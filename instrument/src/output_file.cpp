// The suite's one output writer (see output_file.hpp).
#include "instrument/output_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <memory>

#include "instrument/error.hpp"
#include "temporary_cleanup.hpp"

namespace instrument {

namespace {

std::string errno_text(int err) { return std::strerror(err); }

std::string directory_of(const std::string& p) {
  const std::size_t slash = p.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return p.substr(0, slash);
}

std::string base_name(const std::string& p) {
  const std::size_t slash = p.rfind('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

const char* kind_of(mode_t mode) {
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// " (to T)" for the message, or "" when the link cannot be read.
std::string link_text(const std::string& path) {
  std::string link(static_cast<std::size_t>(PATH_MAX) + 1, '\0');
  const ssize_t n = ::readlink(path.c_str(), link.data(), link.size());
  if (n <= 0 || static_cast<std::size_t>(n) >= link.size()) return "";
  link.resize(static_cast<std::size_t>(n));
  return " (to " + link + ")";
}

// Refuses a symbolic link (never written through, dangling or not) and an existing path
// that is not a regular file (a device, FIFO, directory...). A missing path is a new file.
void require_replaceable(const std::string& path, const std::string& what) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    const int err = errno;
    if (err == ENOENT) return;
    throw InputError(path, "", "cannot write " + what + ": " + errno_text(err));
  }
  if (S_ISREG(st.st_mode)) return;
  if (S_ISLNK(st.st_mode))
    throw InputError(path, "", "cannot write " + what + ": it is a symbolic link" + link_text(path) +
                                   "; refusing to write through it; give the real path");
  throw InputError(path, "", "cannot write " + what + ": it is " + kind_of(st.st_mode) +
                                 ", not a regular file; refusing to replace it");
}

// The pid in "<base>.tmp.<pid>", or -1 when `name` is not such a temporary.
long temp_pid(const std::string& name, const std::string& prefix) {
  if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) return -1;
  const std::string digits = name.substr(prefix.size());
  if (digits.size() > 10) return -1;
  long pid = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return -1;
    pid = pid * 10 + (c - '0');
  }
  return pid > 0 && pid <= INT_MAX ? pid : -1;  // never kill(0, ...) or kill(-1, ...)
}

// Removes "<target>.tmp.<pid>" regular files of processes that no longer run here.
void remove_stale_temporaries(const std::string& target) {
  const std::string dir = directory_of(target);
  const std::string prefix = base_name(target) + ".tmp.";
  std::unique_ptr<DIR, int (*)(DIR*)> d(::opendir(dir.c_str()), ::closedir);
  if (!d) return;  // creating the temporary will report why the directory is unusable
  const long self = static_cast<long>(::getpid());
  while (const dirent* e = ::readdir(d.get())) {
    const long pid = temp_pid(e->d_name, prefix);
    if (pid < 0 || pid == self) continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;  // alive (or EPERM)
    const std::string stale = dir + "/" + e->d_name;
    struct stat st {};
    if (::lstat(stale.c_str(), &st) == 0 && S_ISREG(st.st_mode)) ::unlink(stale.c_str());
  }
}

}  // namespace

OutputFile::OutputFile(std::string path, std::string what)
    : path_(std::move(path)), what_(std::move(what)) {
  if (path_.empty()) throw InputError("(empty path)", "", "cannot write " + what_ + ": no file name");
  require_replaceable(path_, what_);
  temp_ = path_ + ".tmp." + std::to_string(::getpid());
  remove_stale_temporaries(path_);
  // Ours by name: a dead process that had our pid, or an earlier writer of this process.
  // Removed (never followed: unlink acts on a link itself) so the caller creates it anew.
  ::unlink(temp_.c_str());
  cleanup_slot_ = temporary_cleanup::remember(temp_);  // before the caller creates it
}

OutputFile::~OutputFile() {
  // Removed first, disarmed after: a signal in between finds nothing to remove rather than
  // leaving the file behind.
  if (!committed_) ::unlink(temp_.c_str());
  temporary_cleanup::forget(cleanup_slot_);
}

void OutputFile::commit() {
  if (committed_) return;
  const std::string fail = "cannot write " + what_ + ": ";
  // The data on disk before the rename makes it visible: a crash leaves the old or the new.
  const int fd = ::open(temp_.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    throw InputError(path_, "", fail + "opening " + temp_ + ": " + errno_text(err));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw InputError(path_, "", fail + temp_ + " is not a regular file");
  }
  if (::fsync(fd) != 0) {
    const int err = errno;
    ::close(fd);
    throw InputError(path_, "", fail + "syncing " + temp_ + ": " + errno_text(err));
  }
  ::close(fd);
  require_replaceable(path_, what_);  // again: the path may have changed meanwhile
  if (::rename(temp_.c_str(), path_.c_str()) != 0) {
    const int err = errno;
    throw InputError(path_, "", fail + "renaming " + temp_ + " to " + path_ + ": " +
                                    errno_text(err));
  }
  committed_ = true;
  temporary_cleanup::forget(cleanup_slot_);  // after the rename: the name is gone already
  cleanup_slot_ = -1;
  // The rename itself durable; best effort (some file systems refuse fsync on a directory).
  const int dfd = ::open(directory_of(path_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

void write_text_output(const std::string& path, const std::string& what,
                       std::string_view content) {
  OutputFile out(path, what);
  const std::string fail = "cannot write " + what + ": ";
  const int fd = ::open(out.temp_path().c_str(),
                        O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) {
    const int err = errno;
    throw InputError(path, "", fail + "cannot create " + out.temp_path() + ": " + errno_text(err));
  }
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : EIO;
      ::close(fd);
      throw InputError(path, "", fail + "writing " + out.temp_path() + ": " + errno_text(err));
    }
    done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) {
    const int err = errno;
    throw InputError(path, "", fail + "closing " + out.temp_path() + ": " + errno_text(err));
  }
  out.commit();
}

}  // namespace instrument
