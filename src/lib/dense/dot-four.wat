;; The dot products of four queries with every row of an embedding matrix (exact-search.ts, dotFour): for
;; each row r and query j, out_j[r] = Σ_i f64(m[r][i]) · q_j[i], summed over the components in order from 0.
;; The f32 components are widened to f64 exactly, and each SIMD lane does the very multiply and add of the
;; TypeScript loop in the same order (no fused multiply-add), so the sums are bit-identical to it.
;;
;; Memory (the caller lays it out): the matrix (rows × dim f32) at $m; the queries at $q as dim pairs of
;; f64x2, (q0[i], q1[i]) then (q2[i], q3[i]), 32 bytes per component; the four outputs (rows f64 each) one
;; after the other at $out. Assembled by scripts/wasm/build-wat.ts into dot-four.wasm.ts.
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
        (br $row)))))
