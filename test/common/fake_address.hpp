#pragma once
// Operand addresses for tests of huge problems that must never run: far apart (2^50 bytes between
// operands, from 2^44 on), inside the user address space, and never dereferenced — the operator
// refuses the problem, or the test checks only what initialize() built.
#include <cstdint>

namespace test_support {

template <class T>
T* fake_address(int operand) {
  return reinterpret_cast<T*>((std::uintptr_t{1} << 44) + (std::uintptr_t(operand) << 50));
}

}  // namespace test_support
