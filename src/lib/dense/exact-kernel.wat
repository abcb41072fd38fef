;; Exact dense search's hot loops (exact-search.ts, exact-kernel.ts).
;;
;; dotFour: the dot products of four queries with every row of an embedding matrix: for each row r and
;; query j, out_j[r] = Σ_i f64(m[r][i]) · q_j[i], summed over the components in order from 0. The f32
;; components are widened to f64 exactly, and each SIMD lane does the very multiply and add of the
;; TypeScript loop in the same order (no fused multiply-add), so the sums are bit-identical to it.
;; Memory (the caller lays it out): the matrix (rows × dim f32) at $m; the queries at $q as dim pairs of
;; f64x2, (q0[i], q1[i]) then (q2[i], q3[i]), 32 bytes per component; the four outputs (rows f64 each) one
;; after the other at $out.
;;
;; orderRows: the rows 0 … n-1 of a score array ordered by score descending, equal scores in row order
;; (TopK's order; -0 equals 0; no score may be NaN). A stable least-significant-digit radix sort of all n,
;; 11 bits per pass (six passes over the 64-bit keys), on each score's bits made to sort as unsigned
;; integers in descending score order. Passes where every key has the same digit are skipped. Memory: the
;; n scores (f64) at $scores; two key buffers (n i64 each) and two row buffers (n i32 each); 2,048 i32
;; counts. Returns the address of the n ordered rows (i32): $rowsA or $rowsB.
;;
;; Assembled by scripts/wasm/build-wat.ts into exact-kernel.wasm.ts.
(module
  (memory (export "memory") 1)
  (func (export "dotFour") (param $m i32) (param $rows i32) (param $dim i32) (param $q i32) (param $out i32)
    (local $r i32) (local $i i32) (local $p i32) (local $qp i32) (local $o i32) (local $stride i32)
    (local $x v128) (local $s01 v128) (local $s23 v128)
    (local.set $stride (i32.shl (local.get $rows) (i32.const 3)))
    (local.set $p (local.get $m))
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $s01 (v128.const i64x2 0 0))
        (local.set $s23 (v128.const i64x2 0 0))
        (local.set $qp (local.get $q))
        (local.set $i (i32.const 0))
        (block $end
          (loop $component
            (br_if $end (i32.ge_u (local.get $i) (local.get $dim)))
            (local.set $x (f64x2.splat (f64.promote_f32 (f32.load (local.get $p)))))
            (local.set $s01 (f64x2.add (local.get $s01) (f64x2.mul (local.get $x) (v128.load (local.get $qp)))))
            (local.set $s23 (f64x2.add (local.get $s23) (f64x2.mul (local.get $x) (v128.load offset=16 (local.get $qp)))))
            (local.set $p (i32.add (local.get $p) (i32.const 4)))
            (local.set $qp (i32.add (local.get $qp) (i32.const 32)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $component)))
        (local.set $o (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 3))))
        (f64.store (local.get $o) (f64x2.extract_lane 0 (local.get $s01)))
        (local.set $o (i32.add (local.get $o) (local.get $stride)))
        (f64.store (local.get $o) (f64x2.extract_lane 1 (local.get $s01)))
        (local.set $o (i32.add (local.get $o) (local.get $stride)))
        (f64.store (local.get $o) (f64x2.extract_lane 0 (local.get $s23)))
        (local.set $o (i32.add (local.get $o) (local.get $stride)))
        (f64.store (local.get $o) (f64x2.extract_lane 1 (local.get $s23)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $row))))
  (func (export "orderRows") (param $scores i32) (param $n i32) (param $keysA i32) (param $keysB i32) (param $rowsA i32) (param $rowsB i32) (param $counts i32) (result i32)
    (local $i i32) (local $bits i64) (local $shift i64) (local $pass i32) (local $d i32) (local $at i32) (local $sum i32) (local $count i32) (local $swap i32)
    ;; Keys: a non-negative score's bits with all but the sign flipped, a negative score's bits as they are.
    (block $keyed
      (loop $key
        (br_if $keyed (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $bits (i64.reinterpret_f64 (f64.add (f64.load (i32.add (local.get $scores) (i32.shl (local.get $i) (i32.const 3)))) (f64.const 0))))
        (i64.store (i32.add (local.get $keysA) (i32.shl (local.get $i) (i32.const 3)))
          (select (local.get $bits) (i64.xor (local.get $bits) (i64.const 0x7fffffffffffffff)) (i64.lt_s (local.get $bits) (i64.const 0))))
        (i32.store (i32.add (local.get $rowsA) (i32.shl (local.get $i) (i32.const 2))) (local.get $i))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $key)))
    (block $sorted
      (loop $passes
        (br_if $sorted (i32.ge_u (local.get $pass) (i32.const 6)))
        (local.set $shift (i64.extend_i32_u (i32.mul (local.get $pass) (i32.const 11))))
        (local.set $d (i32.const 0))
        (block $cleared
          (loop $clear
            (br_if $cleared (i32.ge_u (local.get $d) (i32.const 8192)))
            (i32.store (i32.add (local.get $counts) (local.get $d)) (i32.const 0))
            (local.set $d (i32.add (local.get $d) (i32.const 4)))
            (br $clear)))
        ;; Histogram of this pass's digit.
        (local.set $i (i32.const 0))
        (block $counted
          (loop $count
            (br_if $counted (i32.ge_u (local.get $i) (local.get $n)))
            (local.set $at (i32.add (local.get $counts) (i32.shl
              (i32.wrap_i64 (i64.and (i64.shr_u (i64.load (i32.add (local.get $keysA) (i32.shl (local.get $i) (i32.const 3)))) (local.get $shift)) (i64.const 0x7ff)))
              (i32.const 2))))
            (i32.store (local.get $at) (i32.add (i32.load (local.get $at)) (i32.const 1)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $count)))
        ;; Every key has the first key's digit: nothing moves in this pass.
        (if (i32.ne
              (i32.load (i32.add (local.get $counts) (i32.shl
                (i32.wrap_i64 (i64.and (i64.shr_u (i64.load (local.get $keysA)) (local.get $shift)) (i64.const 0x7ff)))
                (i32.const 2))))
              (local.get $n))
          (then
            ;; Exclusive prefix sums: where each digit's keys start.
            (local.set $d (i32.const 0))
            (local.set $sum (i32.const 0))
            (block $summed
              (loop $prefix
                (br_if $summed (i32.ge_u (local.get $d) (i32.const 2048)))
                (local.set $at (i32.add (local.get $counts) (i32.shl (local.get $d) (i32.const 2))))
                (local.set $count (i32.load (local.get $at)))
                (i32.store (local.get $at) (local.get $sum))
                (local.set $sum (i32.add (local.get $sum) (local.get $count)))
                (local.set $d (i32.add (local.get $d) (i32.const 1)))
                (br $prefix)))
            ;; Scatter, in order (stable).
            (local.set $i (i32.const 0))
            (block $moved
              (loop $move
                (br_if $moved (i32.ge_u (local.get $i) (local.get $n)))
                (local.set $bits (i64.load (i32.add (local.get $keysA) (i32.shl (local.get $i) (i32.const 3)))))
                (local.set $at (i32.add (local.get $counts) (i32.shl
                  (i32.wrap_i64 (i64.and (i64.shr_u (local.get $bits) (local.get $shift)) (i64.const 0x7ff)))
                  (i32.const 2))))
                (local.set $d (i32.load (local.get $at)))
                (i32.store (local.get $at) (i32.add (local.get $d) (i32.const 1)))
                (i64.store (i32.add (local.get $keysB) (i32.shl (local.get $d) (i32.const 3))) (local.get $bits))
                (i32.store (i32.add (local.get $rowsB) (i32.shl (local.get $d) (i32.const 2)))
                  (i32.load (i32.add (local.get $rowsA) (i32.shl (local.get $i) (i32.const 2)))))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $move)))
            (local.set $swap (local.get $keysA))
            (local.set $keysA (local.get $keysB))
            (local.set $keysB (local.get $swap))
            (local.set $swap (local.get $rowsA))
            (local.set $rowsA (local.get $rowsB))
            (local.set $rowsB (local.get $swap))))
        (local.set $pass (i32.add (local.get $pass) (i32.const 1)))
        (br $passes)))
    (local.get $rowsA)))
