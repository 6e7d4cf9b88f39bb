// The header self-containment test passes by building: each header was compiled alone in its own
// generated source (see CMakeLists.txt) and all of them linked into this program.
#include <cstdio>

int main() {
  std::printf("every hiptile header compiles on its own\n");
  return 0;
}
