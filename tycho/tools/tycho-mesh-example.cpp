// tycho-mesh-example: writes one of the meshes built in code (mesh_examples.hpp) as a
// Tycho2 serial mesh; the fuzzer's seeds in fuzz/corpus/tycho_mesh/ are made with it, and so
// are the meshes of the main job and the tests (a clone needs no mesh from elsewhere).
//
//   tycho-mesh-example corner-tet|two-tets|kuhn-cube OUT.smesh [--cube N] [--side L]
//
// --cube N (kuhn-cube only, in [1, 64], default 1): the cube as N^3 Kuhn cubes, 6 N^3 cells;
// --side L (default 1): the cube [0, L]^3 (Tycho2's meshes are of [0, 100]^3).
#include <string>
#include <vector>

#include "instrument/error.hpp"
#include "instrument/option_file.hpp"
#include "instrument/option_table.hpp"
#include "instrument/run_app.hpp"
#include "mesh/mesh_examples.hpp"
#include "mesh/smesh_reader.hpp"

int main(int argc, char** argv) {
  std::string name, out;
  int cube = 1;  // 64: 1.6 million cells, about 1 GiB
  double side = 1.0;
  const std::vector<std::string> names = {"corner-tet", "two-tets", "kuhn-cube"};
  instrument::OptionTable table("tycho-mesh-example",
                                "tycho-mesh-example corner-tet|two-tets|kuhn-cube OUT.smesh [--cube N] [--side L]");
  table.notes("Writes one of the meshes built in code as a Tycho2 serial mesh.")
      .positional("NAME", instrument::Arity::required,
                  [&](const std::string& n, const std::string& t) {
                    for (const auto& w : names)
                      if (w == t) {
                        name = t;
                        return;
                      }
                    instrument::refuse_choice(n, names, t);
                  },
                  "the mesh: corner-tet, two-tets or kuhn-cube")
      .positional("OUT.smesh", instrument::Arity::required,
                  [&](const std::string& n, const std::string& t) { out = instrument::output_file_option(n, t); },
                  "the serial mesh to write")
      .whole("--cube", "N", cube, 1, 64, "cubes a side", "kuhn-cube only: the cube as N^3 Kuhn cubes, 6 N^3 cells")
      .real("--side", "L", side, 1e-6, 1e6, "", "kuhn-cube only: the cube [0, L]^3 (Tycho2's meshes are of [0, 100]^3)")
      .after_reading([&] {
        for (const char* option : {"--cube", "--side"})
          if (name != "kuhn-cube" && table.given(option))
            throw instrument::InputError("command line", option, "expected it after kuhn-cube only, got " + name);
      });
  return instrument::run_serial_app(argc, argv, table, [&] {
    mesh::Mesh mesh;
    if (name == "corner-tet")
      mesh = mesh::corner_tet_mesh();
    else if (name == "two-tets")
      mesh = mesh::two_tet_mesh();
    else
      mesh = mesh::kuhn_cube_mesh(cube, side);
    mesh::write_smesh(mesh, out);
    return 0;
  });
}
