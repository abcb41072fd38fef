;; The inner loop of a static-table embedding (static-table.ts, StaticTableEncoder): for each distinct token
;; u of a text, in order, sum[c] += weight[u] · row(id[u])[c] for every component c — int8 rows, float64
;; weights and sums. SIMD does two components per f64x2 operation; each lane does the very multiply and add
;; the scalar loop does, in the same order, so the sums are bit-identical to it.
;;
;; Memory (the caller lays it out): rows of `dim` int8 values at $values (4 readable bytes past the last
;; row), the ids (i32) and weights (f64) of the distinct tokens, and the `dim` f64 sums. `dim` must be a
;; multiple of 4. Assembled by scripts/wasm/build-wat.ts into row-sum.wasm.ts.
(module
  (memory (export "memory") 1)
  (func (export "accumulate") (param $ids i32) (param $weights i32) (param $n i32) (param $values i32) (param $dim i32) (param $sum i32)
    (local $u i32) (local $row i32) (local $w v128) (local $c i32) (local $s i32) (local $x v128) (local $lo v128) (local $hi v128)
    (block $done
      (loop $tokens
        (br_if $done (i32.ge_u (local.get $u) (local.get $n)))
        (local.set $w (f64x2.splat (f64.load (i32.add (local.get $weights) (i32.shl (local.get $u) (i32.const 3))))))
        (local.set $row (i32.add (local.get $values) (i32.mul (i32.load (i32.add (local.get $ids) (i32.shl (local.get $u) (i32.const 2)))) (local.get $dim))))
        (local.set $c (i32.const 0))
        (local.set $s (local.get $sum))
        (block $tail
          (loop $eights
            (br_if $tail (i32.gt_u (i32.add (local.get $c) (i32.const 8)) (local.get $dim)))
            ;; 8 int8 → i16x8 → two i32x4 → four f64x2
            (local.set $x (v128.load8x8_s (i32.add (local.get $row) (local.get $c))))
            (local.set $lo (i32x4.extend_low_i16x8_s (local.get $x)))
            (local.set $hi (i32x4.extend_high_i16x8_s (local.get $x)))
            (v128.store offset=0 (local.get $s) (f64x2.add (v128.load offset=0 (local.get $s)) (f64x2.mul (local.get $w) (f64x2.convert_low_i32x4_s (local.get $lo)))))
            (v128.store offset=16 (local.get $s) (f64x2.add (v128.load offset=16 (local.get $s)) (f64x2.mul (local.get $w) (f64x2.convert_low_i32x4_s (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $lo) (local.get $lo))))))
            (v128.store offset=32 (local.get $s) (f64x2.add (v128.load offset=32 (local.get $s)) (f64x2.mul (local.get $w) (f64x2.convert_low_i32x4_s (local.get $hi)))))
            (v128.store offset=48 (local.get $s) (f64x2.add (v128.load offset=48 (local.get $s)) (f64x2.mul (local.get $w) (f64x2.convert_low_i32x4_s (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $hi) (local.get $hi))))))
            (local.set $c (i32.add (local.get $c) (i32.const 8)))
            (local.set $s (i32.add (local.get $s) (i32.const 64)))
            (br $eights)))
        ;; a last group of 4 (its 8-byte load reads 4 bytes past the row)
        (if (i32.lt_u (local.get $c) (local.get $dim))
          (then
            (local.set $lo (i32x4.extend_low_i16x8_s (v128.load8x8_s (i32.add (local.get $row) (local.get $c)))))
            (v128.store offset=0 (local.get $s) (f64x2.add (v128.load offset=0 (local.get $s)) (f64x2.mul (local.get $w) (f64x2.convert_low_i32x4_s (local.get $lo)))))
            (v128.store offset=16 (local.get $s) (f64x2.add (v128.load offset=16 (local.get $s)) (f64x2.mul (local.get $w) (f64x2.convert_low_i32x4_s (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $lo) (local.get $lo))))))))
        (local.set $u (i32.add (local.get $u) (i32.const 1)))
        (br $tokens)))))
