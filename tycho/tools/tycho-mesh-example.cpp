// tycho-mesh-example: writes one of the meshes built in code (mesh_examples.hpp) as a
// Tycho2 serial mesh; the fuzzer's seeds in fuzz/corpus/tycho_mesh/ are made with it, and so
// are the meshes of the main job and the tests (a clone needs no mesh from elsewhere).
//
//   tycho-mesh-example corner-tet|two-tets|kuhn-cube OUT.smesh [--cube N] [--layers K] [--side L]
//
// --cube N (kuhn-cube only, in [1, 64], default 1): the cube as N^3 Kuhn cubes, 6 N^3 cells;
// --layers K (kuhn-cube only, in [1, N], default N): its lowest K layers in z, 6 N^2 K cells
// (--cube 12 --layers 6: the half of the 12^3 cube a rank of two holds, to calibrate on);
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
  int layers = 0;  // 0: all of them
  double side = 1.0;
  const std::vector<std::string> names = {"corner-tet", "two-tets", "kuhn-cube"};
  instrument::OptionTable table("tycho-mesh-example",
                                "tycho-mesh-example corner-tet|two-tets|kuhn-cube OUT.smesh [--cube N] [--layers K] [--side L]");
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
      .whole("--layers", "K", layers, 1, 64, "layers of cubes",
             "kuhn-cube only: its lowest K layers in z, 6 N^2 K cells; K in [1, N] (default: N, the whole cube)")
      .real("--side", "L", side, 1e-6, 1e6, "", "kuhn-cube only: the cube [0, L]^3 (Tycho2's meshes are of [0, 100]^3)")
      .after_reading([&] {
        for (const char* option : {"--cube", "--layers", "--side"})
          if (name != "kuhn-cube" && table.given(option))
            throw instrument::InputError("command line", option, "expected it after kuhn-cube only, got " + name);
        if (layers > cube)
          throw instrument::InputError("command line", "--layers",
                                       "at most the cube's " + std::to_string(cube) + " layers (--cube), got " +
                                           std::to_string(layers));
      });
  return instrument::run_serial_app(argc, argv, table, [&] {
    mesh::Mesh mesh;
    if (name == "corner-tet")
      mesh = mesh::corner_tet_mesh();
    else if (name == "two-tets")
      mesh = mesh::two_tet_mesh();
    else
      mesh = mesh::kuhn_slab_mesh(cube, layers > 0 ? layers : cube, side);
    mesh::write_smesh(mesh, out);
    return 0;
  });
}
