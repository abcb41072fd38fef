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
;; dotEight: dotFour for eight queries (one pass over the matrix for eight: the rows are read, widened and
;; splat once for twice the work), the queries at $q as dim groups of four f64x2, 64 bytes per component,
;; the eight outputs one after the other at $out.
;;
;; dotOne: the dot products of one query with every row, out[r] = Σ_i f64(m[r][i]) · q[i] in order from 0,
;; four rows per step (one per lane of two f64x2 sums), the rest one by one: bit-identical to the loop too.
;; (Unaligned 8-byte loads: a row starts at any multiple of 4 bytes.)
;; The query at $q as dim f64.
;;
;; topRows: the best k (1 ≤ k ≤ n) of the rows 0 … n-1 of a score array, ordered by score descending, equal
;; scores in row order (TopK's order; -0 equals 0; no score may be NaN), on each score's bits made to sort
;; as unsigned integers in descending score order (keys). From 16,384 rows, first a guess: the rows whose
;; score reaches a sample's (every 64th row's) best 2k·sample/n + 16th, when they are at least k. Else
;; selection, reading the scores only: digit
;; by digit from the top (11 bits, then 11 … to the last bit), a histogram of the rows on the boundary
;; finds the k-th best's digit, until at most k + $slack rows are at or before the boundary, or the
;; boundary is the whole key. One pass then writes those rows (in row order; on the whole key only the
;; first k - before of the boundary's ties: lower rows win), and a stable least-significant-digit radix
;; sort orders them, 11 bits per pass, passes where every key has the same digit skipped. Memory: the n
;; scores (f64) at $scores; two key buffers (n i64 each) and two row buffers (n i32 each); 2,048 i32
;; counts. Returns the address of the ordered rows (i32), $rowsA or $rowsB: its first k are the best k.
;;
;; dot32Sixteen: the screening pass (exact-screen.ts): the dot products of sixteen queries with every row in
;; float32, out_j[r] = Σ_i m[r][i] · q_j[i] rounded as float32 operations go (each lane sums over the
;; components in order). Not the scores a search returns: their error is bounded, and exact-screen.ts
;; rescores in float64 every row that the bound cannot rule out. The queries at $q as dim groups of four
;; f32x4, 64 bytes per component; the sixteen outputs (rows f32 each) one after the other at $out.
;;
;; dot32One: the screening pass of one query, four rows per step, each row's components four at a time
;; (one f32x4 sum per row, its lanes added at the end), the last dim mod 4 components and the last rows one
;; by one. The query at $q as dim f32.
;;
;; largestNorm: the largest Euclidean norm of the rows (in float64; NaN or ∞ when a value is not finite),
;; for the screen's error bound.
;;
;; toBf16: the n float32 values at $m rounded to bfloat16 (their top 16 bits, to nearest, ties to even) at
;; $out: the screen of one query reads half the bytes. dotBf16One: dot32One over that copy (rows of dim
;; bfloat16 at $m, widened exactly to float32), eight components per step (one f32x4 sum per row: the
;; products of the low four and of the high four added, then added to it), the last dim mod 8 components
;; and the last rows one by one.
;;
;; gather32: the rows r < n whose score at $scores (f32) is ≥ $lo, in row order, written at $out (i32);
;; returns their count.
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
  (func (export "dotEight") (param $m i32) (param $rows i32) (param $dim i32) (param $q i32) (param $out i32)
    (local $r i32) (local $i i32) (local $p i32) (local $qp i32) (local $o i32) (local $stride i32)
    (local $x v128) (local $s01 v128) (local $s23 v128) (local $s45 v128) (local $s67 v128)
    (local.set $stride (i32.shl (local.get $rows) (i32.const 3)))
    (local.set $p (local.get $m))
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $s01 (v128.const i64x2 0 0))
        (local.set $s23 (v128.const i64x2 0 0))
        (local.set $s45 (v128.const i64x2 0 0))
        (local.set $s67 (v128.const i64x2 0 0))
        (local.set $qp (local.get $q))
        (local.set $i (i32.const 0))
        (block $end
          (loop $component
            (br_if $end (i32.ge_u (local.get $i) (local.get $dim)))
            (local.set $x (f64x2.splat (f64.promote_f32 (f32.load (local.get $p)))))
            (local.set $s01 (f64x2.add (local.get $s01) (f64x2.mul (local.get $x) (v128.load (local.get $qp)))))
            (local.set $s23 (f64x2.add (local.get $s23) (f64x2.mul (local.get $x) (v128.load offset=16 (local.get $qp)))))
            (local.set $s45 (f64x2.add (local.get $s45) (f64x2.mul (local.get $x) (v128.load offset=32 (local.get $qp)))))
            (local.set $s67 (f64x2.add (local.get $s67) (f64x2.mul (local.get $x) (v128.load offset=48 (local.get $qp)))))
            (local.set $p (i32.add (local.get $p) (i32.const 4)))
            (local.set $qp (i32.add (local.get $qp) (i32.const 64)))
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
        (local.set $o (i32.add (local.get $o) (local.get $stride)))
        (f64.store (local.get $o) (f64x2.extract_lane 0 (local.get $s45)))
        (local.set $o (i32.add (local.get $o) (local.get $stride)))
        (f64.store (local.get $o) (f64x2.extract_lane 1 (local.get $s45)))
        (local.set $o (i32.add (local.get $o) (local.get $stride)))
        (f64.store (local.get $o) (f64x2.extract_lane 0 (local.get $s67)))
        (local.set $o (i32.add (local.get $o) (local.get $stride)))
        (f64.store (local.get $o) (f64x2.extract_lane 1 (local.get $s67)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $row))))
  (func (export "dotOne") (param $m i32) (param $rows i32) (param $dim i32) (param $q i32) (param $out i32)
    (local $r i32) (local $i i32) (local $p i32) (local $p1 i32) (local $p2 i32) (local $p3 i32) (local $qp i32) (local $stride i32) (local $s f64)
    (local $a v128) (local $b v128) (local $c v128) (local $d v128) (local $y0 v128) (local $y1 v128) (local $s01 v128) (local $s23 v128)
    (local.set $stride (i32.shl (local.get $dim) (i32.const 2)))
    ;; Four rows at a time, one per lane; two components per step (each row's pair loaded as one f32x2 and
    ;; widened, then the pairs of two rows regrouped by component), a last odd component alone.
    (block $fours
      (loop $four
        (br_if $fours (i32.gt_u (i32.add (local.get $r) (i32.const 4)) (local.get $rows)))
        (local.set $p (i32.add (local.get $m) (i32.mul (local.get $r) (local.get $stride))))
        (local.set $p1 (i32.add (local.get $p) (local.get $stride)))
        (local.set $p2 (i32.add (local.get $p1) (local.get $stride)))
        (local.set $p3 (i32.add (local.get $p2) (local.get $stride)))
        (local.set $s01 (v128.const i64x2 0 0))
        (local.set $s23 (v128.const i64x2 0 0))
        (local.set $qp (local.get $q))
        (local.set $i (local.get $dim))
        (block $end
          (loop $pair
            (br_if $end (i32.lt_u (local.get $i) (i32.const 2)))
            (local.set $y0 (v128.load64_splat (local.get $qp)))
            (local.set $y1 (v128.load64_splat offset=8 (local.get $qp)))
            (local.set $a (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $p))))
            (local.set $b (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $p1))))
            (local.set $c (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $p2))))
            (local.set $d (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $p3))))
            (local.set $s01 (f64x2.add (local.get $s01) (f64x2.mul (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $a) (local.get $b)) (local.get $y0))))
            (local.set $s23 (f64x2.add (local.get $s23) (f64x2.mul (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $c) (local.get $d)) (local.get $y0))))
            (local.set $s01 (f64x2.add (local.get $s01) (f64x2.mul (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $a) (local.get $b)) (local.get $y1))))
            (local.set $s23 (f64x2.add (local.get $s23) (f64x2.mul (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $c) (local.get $d)) (local.get $y1))))
            (local.set $p (i32.add (local.get $p) (i32.const 8)))
            (local.set $p1 (i32.add (local.get $p1) (i32.const 8)))
            (local.set $p2 (i32.add (local.get $p2) (i32.const 8)))
            (local.set $p3 (i32.add (local.get $p3) (i32.const 8)))
            (local.set $qp (i32.add (local.get $qp) (i32.const 16)))
            (local.set $i (i32.sub (local.get $i) (i32.const 2)))
            (br $pair)))
        (if (local.get $i)
          (then
            (local.set $y0 (v128.load64_splat (local.get $qp)))
            (local.set $s01 (f64x2.add (local.get $s01) (f64x2.mul (f64x2.replace_lane 1
              (f64x2.splat (f64.promote_f32 (f32.load (local.get $p))))
              (f64.promote_f32 (f32.load (local.get $p1)))) (local.get $y0))))
            (local.set $s23 (f64x2.add (local.get $s23) (f64x2.mul (f64x2.replace_lane 1
              (f64x2.splat (f64.promote_f32 (f32.load (local.get $p2))))
              (f64.promote_f32 (f32.load (local.get $p3)))) (local.get $y0))))))
        (v128.store (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 3))) (local.get $s01))
        (v128.store offset=16 (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 3))) (local.get $s23))
        (local.set $r (i32.add (local.get $r) (i32.const 4)))
        (br $four)))
    ;; The last rows one by one.
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $p (i32.add (local.get $m) (i32.mul (local.get $r) (local.get $stride))))
        (local.set $s (f64.const 0))
        (local.set $qp (local.get $q))
        (local.set $i (i32.const 0))
        (block $last
          (loop $component1
            (br_if $last (i32.ge_u (local.get $i) (local.get $dim)))
            (local.set $s (f64.add (local.get $s) (f64.mul (f64.promote_f32 (f32.load (local.get $p))) (f64.load (local.get $qp)))))
            (local.set $p (i32.add (local.get $p) (i32.const 4)))
            (local.set $qp (i32.add (local.get $qp) (i32.const 8)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $component1)))
        (f64.store (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 3))) (local.get $s))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $row))))
  (func (export "largestNorm") (param $m i32) (param $rows i32) (param $dim i32) (result f64)
    (local $r i32) (local $i i32) (local $p i32) (local $s v128) (local $x v128) (local $sum f64) (local $largest f64)
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $s (v128.const i64x2 0 0))
        (local.set $i (local.get $dim))
        (block $end
          (loop $pair
            (br_if $end (i32.lt_u (local.get $i) (i32.const 2)))
            (local.set $x (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $p))))
            (local.set $s (f64x2.add (local.get $s) (f64x2.mul (local.get $x) (local.get $x))))
            (local.set $p (i32.add (local.get $p) (i32.const 8)))
            (local.set $i (i32.sub (local.get $i) (i32.const 2)))
            (br $pair)))
        (local.set $sum (f64.add (f64x2.extract_lane 0 (local.get $s)) (f64x2.extract_lane 1 (local.get $s))))
        (if (local.get $i)
          (then
            (local.set $sum (f64.add (local.get $sum) (f64.mul (f64.promote_f32 (f32.load (local.get $p))) (f64.promote_f32 (f32.load (local.get $p))))))
            (local.set $p (i32.add (local.get $p) (i32.const 4)))))
        ;; f64.max keeps a NaN: one value that is not finite makes the answer NaN or ∞.
        (local.set $largest (f64.max (local.get $largest) (local.get $sum)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $row)))
    (f64.sqrt (local.get $largest)))
  (func (export "dot32Sixteen") (param $m i32) (param $rows i32) (param $dim i32) (param $q i32) (param $out i32)
    (local $r i32) (local $i i32) (local $p i32) (local $qp i32) (local $o i32) (local $stride i32)
    (local $x v128) (local $s0 v128) (local $s1 v128) (local $s2 v128) (local $s3 v128)
    (local.set $stride (i32.shl (local.get $rows) (i32.const 2)))
    (local.set $p (local.get $m))
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $s0 (v128.const i64x2 0 0))
        (local.set $s1 (v128.const i64x2 0 0))
        (local.set $s2 (v128.const i64x2 0 0))
        (local.set $s3 (v128.const i64x2 0 0))
        (local.set $qp (local.get $q))
        (local.set $i (i32.const 0))
        (block $end
          (loop $component
            (br_if $end (i32.ge_u (local.get $i) (local.get $dim)))
            (local.set $x (v128.load32_splat (local.get $p)))
            (local.set $s0 (f32x4.add (local.get $s0) (f32x4.mul (local.get $x) (v128.load (local.get $qp)))))
            (local.set $s1 (f32x4.add (local.get $s1) (f32x4.mul (local.get $x) (v128.load offset=16 (local.get $qp)))))
            (local.set $s2 (f32x4.add (local.get $s2) (f32x4.mul (local.get $x) (v128.load offset=32 (local.get $qp)))))
            (local.set $s3 (f32x4.add (local.get $s3) (f32x4.mul (local.get $x) (v128.load offset=48 (local.get $qp)))))
            (local.set $p (i32.add (local.get $p) (i32.const 4)))
            (local.set $qp (i32.add (local.get $qp) (i32.const 64)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $component)))
        (local.set $o (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2))))
        (f32.store (local.get $o) (f32x4.extract_lane 0 (local.get $s0)))
        (local.set $o (i32.add (local.get $o) (local.get $stride)))
        (f32.store (local.get $o) (f32x4.extract_lane 1 (local.get $s0)))
        (local.set $o (i32.add (local.get $o) (local.get $stride)))
        (f32.store (local.get $o) (f32x4.extract_lane 2 (local.get $s0)))
        (local.set $o (i32.add (local.get $o) (local.get $stride)))
        (f32.store (local.get $o) (f32x4.extract_lane 3 (local.get $s0)))
        (local.set $o (i32.add (local.get $o) (local.get $stride)))
        (f32.store (local.get $o) (f32x4.extract_lane 0 (local.get $s1)))
        (local.set $o (i32.add (local.get $o) (local.get $stride)))
        (f32.store (local.get $o) (f32x4.extract_lane 1 (local.get $s1)))
        (local.set $o (i32.add (local.get $o) (local.get $stride)))
        (f32.store (local.get $o) (f32x4.extract_lane 2 (local.get $s1)))
        (local.set $o (i32.add (local.get $o) (local.get $stride)))
        (f32.store (local.get $o) (f32x4.extract_lane 3 (local.get $s1)))
        (local.set $o (i32.add (local.get $o) (local.get $stride)))
        (f32.store (local.get $o) (f32x4.extract_lane 0 (local.get $s2)))
        (local.set $o (i32.add (local.get $o) (local.get $stride)))
        (f32.store (local.get $o) (f32x4.extract_lane 1 (local.get $s2)))
        (local.set $o (i32.add (local.get $o) (local.get $stride)))
        (f32.store (local.get $o) (f32x4.extract_lane 2 (local.get $s2)))
        (local.set $o (i32.add (local.get $o) (local.get $stride)))
        (f32.store (local.get $o) (f32x4.extract_lane 3 (local.get $s2)))
        (local.set $o (i32.add (local.get $o) (local.get $stride)))
        (f32.store (local.get $o) (f32x4.extract_lane 0 (local.get $s3)))
        (local.set $o (i32.add (local.get $o) (local.get $stride)))
        (f32.store (local.get $o) (f32x4.extract_lane 1 (local.get $s3)))
        (local.set $o (i32.add (local.get $o) (local.get $stride)))
        (f32.store (local.get $o) (f32x4.extract_lane 2 (local.get $s3)))
        (local.set $o (i32.add (local.get $o) (local.get $stride)))
        (f32.store (local.get $o) (f32x4.extract_lane 3 (local.get $s3)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $row))))
  (func (export "dot32One") (param $m i32) (param $rows i32) (param $dim i32) (param $q i32) (param $out i32)
    (local $r i32) (local $i i32) (local $p i32) (local $qp i32) (local $stride i32) (local $wide i32)
    (local $y v128) (local $a v128) (local $b v128) (local $c v128) (local $d v128)
    (local.set $stride (i32.shl (local.get $dim) (i32.const 2)))
    (local.set $wide (i32.and (local.get $dim) (i32.const -4)))
    (block $fours
      (loop $four
        (br_if $fours (i32.gt_u (i32.add (local.get $r) (i32.const 4)) (local.get $rows)))
        (local.set $p (i32.add (local.get $m) (i32.mul (local.get $r) (local.get $stride))))
        (local.set $a (v128.const i64x2 0 0))
        (local.set $b (v128.const i64x2 0 0))
        (local.set $c (v128.const i64x2 0 0))
        (local.set $d (v128.const i64x2 0 0))
        (local.set $qp (local.get $q))
        (local.set $i (i32.const 0))
        (block $end
          (loop $quad
            (br_if $end (i32.ge_u (local.get $i) (local.get $wide)))
            (local.set $y (v128.load (local.get $qp)))
            (local.set $a (f32x4.add (local.get $a) (f32x4.mul (v128.load (local.get $p)) (local.get $y))))
            (local.set $b (f32x4.add (local.get $b) (f32x4.mul (v128.load (i32.add (local.get $p) (local.get $stride))) (local.get $y))))
            (local.set $c (f32x4.add (local.get $c) (f32x4.mul (v128.load (i32.add (local.get $p) (i32.shl (local.get $stride) (i32.const 1)))) (local.get $y))))
            (local.set $d (f32x4.add (local.get $d) (f32x4.mul (v128.load (i32.add (local.get $p) (i32.mul (local.get $stride) (i32.const 3)))) (local.get $y))))
            (local.set $p (i32.add (local.get $p) (i32.const 16)))
            (local.set $qp (i32.add (local.get $qp) (i32.const 16)))
            (local.set $i (i32.add (local.get $i) (i32.const 4)))
            (br $quad)))
        (f32.store (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
          (call $rest (local.get $a) (local.get $p) (local.get $qp) (i32.sub (local.get $dim) (local.get $wide))))
        (f32.store offset=4 (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
          (call $rest (local.get $b) (i32.add (local.get $p) (local.get $stride)) (local.get $qp) (i32.sub (local.get $dim) (local.get $wide))))
        (f32.store offset=8 (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
          (call $rest (local.get $c) (i32.add (local.get $p) (i32.shl (local.get $stride) (i32.const 1))) (local.get $qp) (i32.sub (local.get $dim) (local.get $wide))))
        (f32.store offset=12 (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
          (call $rest (local.get $d) (i32.add (local.get $p) (i32.mul (local.get $stride) (i32.const 3))) (local.get $qp) (i32.sub (local.get $dim) (local.get $wide))))
        (local.set $r (i32.add (local.get $r) (i32.const 4)))
        (br $four)))
    ;; The last rows one by one.
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
        (f32.store (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
          (call $rest (v128.const i64x2 0 0) (i32.add (local.get $m) (i32.mul (local.get $r) (local.get $stride))) (local.get $q) (local.get $dim)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $row))))
  ;; The lanes of $sum added, then the $left components at $p times the query's at $qp, one by one.
  (func $rest (param $sum v128) (param $p i32) (param $qp i32) (param $left i32) (result f32)
    (local $s f32)
    (local.set $s (f32.add
      (f32.add (f32x4.extract_lane 0 (local.get $sum)) (f32x4.extract_lane 1 (local.get $sum)))
      (f32.add (f32x4.extract_lane 2 (local.get $sum)) (f32x4.extract_lane 3 (local.get $sum)))))
    (block $done
      (loop $component
        (br_if $done (i32.eqz (local.get $left)))
        (local.set $s (f32.add (local.get $s) (f32.mul (f32.load (local.get $p)) (f32.load (local.get $qp)))))
        (local.set $p (i32.add (local.get $p) (i32.const 4)))
        (local.set $qp (i32.add (local.get $qp) (i32.const 4)))
        (local.set $left (i32.sub (local.get $left) (i32.const 1)))
        (br $component)))
    (local.get $s))
  (func (export "toBf16") (param $m i32) (param $n i32) (param $out i32)
    (local $i i32) (local $a v128) (local $b v128)
    (block $done
      (loop $eight
        (br_if $done (i32.gt_u (i32.add (local.get $i) (i32.const 8)) (local.get $n)))
        (local.set $a (v128.load (local.get $m)))
        (local.set $b (v128.load offset=16 (local.get $m)))
        (v128.store (local.get $out) (i16x8.narrow_i32x4_u (call $roundBf16 (local.get $a)) (call $roundBf16 (local.get $b))))
        (local.set $m (i32.add (local.get $m) (i32.const 32)))
        (local.set $out (i32.add (local.get $out) (i32.const 16)))
        (local.set $i (i32.add (local.get $i) (i32.const 8)))
        (br $eight)))
    (block $last
      (loop $one
        (br_if $last (i32.ge_u (local.get $i) (local.get $n)))
        (i32.store16 (local.get $out) (i32x4.extract_lane 0 (call $roundBf16 (v128.load32_zero (local.get $m)))))
        (local.set $m (i32.add (local.get $m) (i32.const 4)))
        (local.set $out (i32.add (local.get $out) (i32.const 2)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $one))))
  ;; Each lane's float32 bits rounded to their top 16 (to nearest, ties to even), in the lane's low half.
  (func $roundBf16 (param $x v128) (result v128)
    (i32x4.shr_u
      (i32x4.add (i32x4.add (local.get $x) (i32x4.splat (i32.const 0x7fff)))
        (v128.and (i32x4.shr_u (local.get $x) (i32.const 16)) (i32x4.splat (i32.const 1))))
      (i32.const 16)))
  (func (export "dotBf16One") (param $m i32) (param $rows i32) (param $dim i32) (param $q i32) (param $out i32)
    (local $r i32) (local $i i32) (local $p i32) (local $qp i32) (local $stride i32) (local $wide i32)
    (local $ylo v128) (local $yhi v128) (local $x v128) (local $a v128) (local $b v128) (local $c v128) (local $d v128)
    (local.set $stride (i32.shl (local.get $dim) (i32.const 1)))
    (local.set $wide (i32.and (local.get $dim) (i32.const -8)))
    (block $fours
      (loop $four
        (br_if $fours (i32.gt_u (i32.add (local.get $r) (i32.const 4)) (local.get $rows)))
        (local.set $p (i32.add (local.get $m) (i32.mul (local.get $r) (local.get $stride))))
        (local.set $a (v128.const i64x2 0 0))
        (local.set $b (v128.const i64x2 0 0))
        (local.set $c (v128.const i64x2 0 0))
        (local.set $d (v128.const i64x2 0 0))
        (local.set $qp (local.get $q))
        (local.set $i (i32.const 0))
        (block $end
          (loop $octet
            (br_if $end (i32.ge_u (local.get $i) (local.get $wide)))
            (local.set $ylo (v128.load (local.get $qp)))
            (local.set $yhi (v128.load offset=16 (local.get $qp)))
            (local.set $x (v128.load (local.get $p)))
            (local.set $a (f32x4.add (local.get $a) (f32x4.add
              (f32x4.mul (i32x4.shl (i32x4.extend_low_i16x8_u (local.get $x)) (i32.const 16)) (local.get $ylo))
              (f32x4.mul (i32x4.shl (i32x4.extend_high_i16x8_u (local.get $x)) (i32.const 16)) (local.get $yhi)))))
            (local.set $x (v128.load (i32.add (local.get $p) (local.get $stride))))
            (local.set $b (f32x4.add (local.get $b) (f32x4.add
              (f32x4.mul (i32x4.shl (i32x4.extend_low_i16x8_u (local.get $x)) (i32.const 16)) (local.get $ylo))
              (f32x4.mul (i32x4.shl (i32x4.extend_high_i16x8_u (local.get $x)) (i32.const 16)) (local.get $yhi)))))
            (local.set $x (v128.load (i32.add (local.get $p) (i32.shl (local.get $stride) (i32.const 1)))))
            (local.set $c (f32x4.add (local.get $c) (f32x4.add
              (f32x4.mul (i32x4.shl (i32x4.extend_low_i16x8_u (local.get $x)) (i32.const 16)) (local.get $ylo))
              (f32x4.mul (i32x4.shl (i32x4.extend_high_i16x8_u (local.get $x)) (i32.const 16)) (local.get $yhi)))))
            (local.set $x (v128.load (i32.add (local.get $p) (i32.mul (local.get $stride) (i32.const 3)))))
            (local.set $d (f32x4.add (local.get $d) (f32x4.add
              (f32x4.mul (i32x4.shl (i32x4.extend_low_i16x8_u (local.get $x)) (i32.const 16)) (local.get $ylo))
              (f32x4.mul (i32x4.shl (i32x4.extend_high_i16x8_u (local.get $x)) (i32.const 16)) (local.get $yhi)))))
            (local.set $p (i32.add (local.get $p) (i32.const 16)))
            (local.set $qp (i32.add (local.get $qp) (i32.const 32)))
            (local.set $i (i32.add (local.get $i) (i32.const 8)))
            (br $octet)))
        (f32.store (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
          (call $restBf16 (local.get $a) (local.get $p) (local.get $qp) (i32.sub (local.get $dim) (local.get $wide))))
        (f32.store offset=4 (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
          (call $restBf16 (local.get $b) (i32.add (local.get $p) (local.get $stride)) (local.get $qp) (i32.sub (local.get $dim) (local.get $wide))))
        (f32.store offset=8 (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
          (call $restBf16 (local.get $c) (i32.add (local.get $p) (i32.shl (local.get $stride) (i32.const 1))) (local.get $qp) (i32.sub (local.get $dim) (local.get $wide))))
        (f32.store offset=12 (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
          (call $restBf16 (local.get $d) (i32.add (local.get $p) (i32.mul (local.get $stride) (i32.const 3))) (local.get $qp) (i32.sub (local.get $dim) (local.get $wide))))
        (local.set $r (i32.add (local.get $r) (i32.const 4)))
        (br $four)))
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
        (f32.store (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
          (call $restBf16 (v128.const i64x2 0 0) (i32.add (local.get $m) (i32.mul (local.get $r) (local.get $stride))) (local.get $q) (local.get $dim)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $row))))
  ;; The lanes of $sum added, then the $left bfloat16 components at $p times the query's at $qp, one by one.
  (func $restBf16 (param $sum v128) (param $p i32) (param $qp i32) (param $left i32) (result f32)
    (local $s f32)
    (local.set $s (f32.add
      (f32.add (f32x4.extract_lane 0 (local.get $sum)) (f32x4.extract_lane 1 (local.get $sum)))
      (f32.add (f32x4.extract_lane 2 (local.get $sum)) (f32x4.extract_lane 3 (local.get $sum)))))
    (block $done
      (loop $component
        (br_if $done (i32.eqz (local.get $left)))
        (local.set $s (f32.add (local.get $s) (f32.mul
          (f32.reinterpret_i32 (i32.shl (i32.load16_u (local.get $p)) (i32.const 16))) (f32.load (local.get $qp)))))
        (local.set $p (i32.add (local.get $p) (i32.const 2)))
        (local.set $qp (i32.add (local.get $qp) (i32.const 4)))
        (local.set $left (i32.sub (local.get $left) (i32.const 1)))
        (br $component)))
    (local.get $s))
  (func (export "gather32") (param $scores i32) (param $n i32) (param $lo f32) (param $out i32) (result i32)
    (local $i i32) (local $j i32) (local $w i32) (local $floor v128)
    (local.set $floor (f32x4.splat (local.get $lo)))
    (block $done
      (loop $four
        (br_if $done (i32.gt_u (i32.add (local.get $i) (i32.const 4)) (local.get $n)))
        (if (v128.any_true (f32x4.ge (v128.load (i32.add (local.get $scores) (i32.shl (local.get $i) (i32.const 2)))) (local.get $floor)))
          (then
            (local.set $j (local.get $i))
            (block $lanes
              (loop $lane
                (br_if $lanes (i32.ge_u (local.get $j) (i32.add (local.get $i) (i32.const 4))))
                (if (f32.ge (f32.load (i32.add (local.get $scores) (i32.shl (local.get $j) (i32.const 2)))) (local.get $lo))
                  (then
                    (i32.store (i32.add (local.get $out) (i32.shl (local.get $w) (i32.const 2))) (local.get $j))
                    (local.set $w (i32.add (local.get $w) (i32.const 1)))))
                (local.set $j (i32.add (local.get $j) (i32.const 1)))
                (br $lane)))))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $four)))
    (block $last
      (loop $one
        (br_if $last (i32.ge_u (local.get $i) (local.get $n)))
        (if (f32.ge (f32.load (i32.add (local.get $scores) (i32.shl (local.get $i) (i32.const 2)))) (local.get $lo))
          (then
            (i32.store (i32.add (local.get $out) (i32.shl (local.get $w) (i32.const 2))) (local.get $i))
            (local.set $w (i32.add (local.get $w) (i32.const 1)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $one)))
    (local.get $w))
  (func (export "topRows") (param $scores i32) (param $n i32) (param $k i32) (param $slack i32) (param $keysA i32) (param $keysB i32) (param $rowsA i32) (param $rowsB i32) (param $counts i32) (result i32)
    (local $i i32) (local $w i32) (local $d i32) (local $at i32) (local $before i32) (local $ties i32) (local $all i32)
    (local $key i64) (local $bits i64) (local $shift i64) (local $above i64) (local $bound i64) (local $prefix i64)
    (local $sample i32) (local $j i32) (local $x f64) (local $floor f64)
    ;; Many rows: a sample of every 64th row gives a score that about 2k + 1,000 rows reach; the rows that
    ;; reach it, gathered in one pass, hold the best k when they are at least k (else: the selection below).
    (if (i32.ge_u (local.get $n) (i32.const 16384))
      (then
        (local.set $sample (i32.shr_u (local.get $n) (i32.const 6)))
        (local.set $d (i32.add (i32.wrap_i64 (i64.div_u
          (i64.mul (i64.extend_i32_u (i32.shl (local.get $k) (i32.const 1))) (i64.extend_i32_u (local.get $sample)))
          (i64.extend_i32_u (local.get $n)))) (i32.const 16)))
        (if (i32.lt_u (local.get $d) (local.get $sample))
          (then
            (block $sampled
              (loop $sampling
                (br_if $sampled (i32.ge_u (local.get $j) (local.get $sample)))
                (local.set $i (i32.shl (local.get $j) (i32.const 6)))
            (local.set $bits (i64.reinterpret_f64 (f64.add (f64.load (i32.add (local.get $scores) (i32.shl (local.get $i) (i32.const 3)))) (f64.const 0))))
            (local.set $key (select (local.get $bits) (i64.xor (local.get $bits) (i64.const 0x7fffffffffffffff)) (i64.lt_s (local.get $bits) (i64.const 0))))
                (i64.store (i32.add (local.get $keysA) (i32.shl (local.get $j) (i32.const 3))) (local.get $key))
                (i32.store (i32.add (local.get $rowsA) (i32.shl (local.get $j) (i32.const 2))) (local.get $i))
                (local.set $j (i32.add (local.get $j) (i32.const 1)))
                (br $sampling)))
            (local.set $at (call $sortRows (local.get $sample) (local.get $keysA) (local.get $keysB) (local.get $rowsA) (local.get $rowsB) (local.get $counts)))
            (local.set $floor (f64.load (i32.add (local.get $scores) (i32.shl
              (i32.load (i32.add (local.get $at) (i32.shl (i32.sub (local.get $d) (i32.const 1)) (i32.const 2))))
              (i32.const 3)))))
            (local.set $i (i32.const 0))
            (block $reached
              (loop $reach
                (br_if $reached (i32.ge_u (local.get $i) (local.get $n)))
                (local.set $x (f64.load (i32.add (local.get $scores) (i32.shl (local.get $i) (i32.const 3)))))
                (if (f64.ge (local.get $x) (local.get $floor))
                  (then
                    (local.set $bits (i64.reinterpret_f64 (f64.add (local.get $x) (f64.const 0))))
                    (i64.store (i32.add (local.get $keysA) (i32.shl (local.get $w) (i32.const 3)))
                      (select (local.get $bits) (i64.xor (local.get $bits) (i64.const 0x7fffffffffffffff)) (i64.lt_s (local.get $bits) (i64.const 0))))
                    (i32.store (i32.add (local.get $rowsA) (i32.shl (local.get $w) (i32.const 2))) (local.get $i))
                    (local.set $w (i32.add (local.get $w) (i32.const 1)))))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $reach)))
            (if (i32.ge_u (local.get $w) (local.get $k))
              (then (return (call $sortRows (local.get $w) (local.get $keysA) (local.get $keysB) (local.get $rowsA) (local.get $rowsB) (local.get $counts)))))
            (local.set $w (i32.const 0))))))
    ;; Select, reading the scores only: digit by digit from the top, the histogram of the rows whose key
    ;; prefix is the boundary's finds the k-th best's digit; until the rows at or before the boundary are
    ;; at most k + slack, or the boundary is the whole key.
    (local.set $shift (i64.const 53))
    (local.set $above (i64.const 64))
    (local.set $all (i32.const 1))
    (block $selected
      (loop $level
        (call $clear (local.get $counts))
        (local.set $i (i32.const 0))
        (block $counted
          (loop $count
            (br_if $counted (i32.ge_u (local.get $i) (local.get $n)))
            (local.set $bits (i64.reinterpret_f64 (f64.add (f64.load (i32.add (local.get $scores) (i32.shl (local.get $i) (i32.const 3)))) (f64.const 0))))
        (local.set $key (select (local.get $bits) (i64.xor (local.get $bits) (i64.const 0x7fffffffffffffff)) (i64.lt_s (local.get $bits) (i64.const 0))))
            (if (i32.or (local.get $all) (i64.eq (i64.shr_u (local.get $key) (local.get $above)) (local.get $bound)))
              (then
                (local.set $at (i32.add (local.get $counts) (i32.shl
                  (i32.wrap_i64 (i64.and (i64.shr_u (local.get $key) (local.get $shift)) (i64.const 0x7ff)))
                  (i32.const 2))))
                (i32.store (local.get $at) (i32.add (i32.load (local.get $at)) (i32.const 1)))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $count)))
        ;; The digit of the k-th best; the rows before it ($before, over all levels) are all kept.
        (local.set $d (i32.const 0))
        (block $found
          (loop $digit
            (local.set $at (i32.load (i32.add (local.get $counts) (i32.shl (local.get $d) (i32.const 2)))))
            (br_if $found (i32.ge_u (i32.add (local.get $before) (local.get $at)) (local.get $k)))
            (local.set $before (i32.add (local.get $before) (local.get $at)))
            (local.set $d (i32.add (local.get $d) (i32.const 1)))
            (br $digit)))
        ;; The boundary prefix: the previous one, then this digit's bits below it.
        (local.set $prefix (i64.or
          (i64.shl (local.get $bound) (i64.sub (local.get $above) (local.get $shift)))
          (i64.and (i64.extend_i32_u (local.get $d)) (i64.sub (i64.shl (i64.const 1) (i64.sub (local.get $above) (local.get $shift))) (i64.const 1)))))
        (br_if $selected (i64.eqz (local.get $shift)))
        (br_if $selected (i32.le_u (i32.add (local.get $before) (local.get $at)) (i32.add (local.get $k) (local.get $slack))))
        (local.set $all (i32.const 0))
        (local.set $bound (local.get $prefix))
        (local.set $above (local.get $shift))
        (local.set $shift (select (i64.sub (local.get $shift) (i64.const 11)) (i64.const 0) (i64.gt_u (local.get $shift) (i64.const 11))))
        (br $level)))
    ;; Gather in row order the rows at or before the boundary (keys: ascending keys are descending scores,
    ;; -0 made 0). On the whole key the boundary's rows are ties: the first k - before of them (lower rows) win.
    (local.set $ties (select (i32.sub (local.get $k) (local.get $before)) (i32.const -1) (i64.eqz (local.get $shift))))
    (local.set $i (i32.const 0))
    (block $gathered
      (loop $gather
        (br_if $gathered (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $bits (i64.reinterpret_f64 (f64.add (f64.load (i32.add (local.get $scores) (i32.shl (local.get $i) (i32.const 3)))) (f64.const 0))))
        (local.set $key (select (local.get $bits) (i64.xor (local.get $bits) (i64.const 0x7fffffffffffffff)) (i64.lt_s (local.get $bits) (i64.const 0))))
        (local.set $bits (i64.shr_u (local.get $key) (local.get $shift)))
        (if (i32.or
              (i64.lt_u (local.get $bits) (local.get $prefix))
              (i32.and (i64.eq (local.get $bits) (local.get $prefix)) (i32.ne (local.get $ties) (i32.const 0))))
          (then
            (if (i64.eq (local.get $bits) (local.get $prefix)) (then (local.set $ties (i32.sub (local.get $ties) (i32.const 1)))))
            (i64.store (i32.add (local.get $keysA) (i32.shl (local.get $w) (i32.const 3))) (local.get $key))
            (i32.store (i32.add (local.get $rowsA) (i32.shl (local.get $w) (i32.const 2))) (local.get $i))
            (local.set $w (i32.add (local.get $w) (i32.const 1)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $gather)))
    (call $sortRows (local.get $w) (local.get $keysA) (local.get $keysB) (local.get $rowsA) (local.get $rowsB) (local.get $counts)))
  (func $clear (param $counts i32)
    (local $d i32)
    (block $cleared
      (loop $clearing
        (br_if $cleared (i32.ge_u (local.get $d) (i32.const 8192)))
        (i32.store (i32.add (local.get $counts) (local.get $d)) (i32.const 0))
        (local.set $d (i32.add (local.get $d) (i32.const 4)))
        (br $clearing))))
  ;; The n keys and rows ordered by key ascending, equal keys in their order: a stable LSD radix sort.
  (func $sortRows (param $n i32) (param $keysA i32) (param $keysB i32) (param $rowsA i32) (param $rowsB i32) (param $counts i32) (result i32)
    (local $i i32) (local $bits i64) (local $shift i64) (local $pass i32) (local $d i32) (local $at i32) (local $sum i32) (local $count i32) (local $swap i32)
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
    (local.get $rowsA))
)
