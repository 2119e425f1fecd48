import { describe } from 'node:test';
import { quantityLibrary } from './quantity.js';
import { type CelCase, runCelCases } from './testing/cel-cases.js';

const FORMAT_WRONG = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const SUFFIX = "unable to parse quantity's suffix";

describe('kubernetes.quantity', () => {
  const cases: CelCase[] = [
    // kube's own table (quantity_test.go in k8s.io/apiserver/pkg/cel/library).
    { expr: 'quantity("12Mi") == quantity("12582912")', want: true },
    { expr: 'quantity("10Mo")', error: FORMAT_WRONG },
    { expr: 'quantity("10Mm")', error: SUFFIX },
    { expr: 'isQuantity("20")', want: true },
    { expr: 'isQuantity("20M")', want: true },
    { expr: 'isQuantity("20Mi")', want: true },
    { expr: 'isQuantity("20Mo")', want: false },
    { expr: 'isQuantity("10Mm")', want: false },
    { expr: 'isQuantity([1, 2, 3])', checkError: "found no matching overload for 'isQuantity" },
    { expr: 'quantity("200M") == quantity("200M")', want: true },
    { expr: 'quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M")', want: true },
    { expr: 'quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M")', want: true },
    { expr: 'quantity("200M") == quantity("0.3G")', want: false },
    { expr: 'quantity("50M").isLessThan(quantity("50Mi"))', want: true },
    { expr: 'quantity("50M").isLessThan(quantity("100M"))', want: true },
    { expr: 'quantity("100M").isLessThan(quantity("50M"))', want: false },
    { expr: 'quantity("50Mi").isGreaterThan(quantity("50M"))', want: true },
    { expr: 'quantity("150Mi").isGreaterThan(quantity("100Mi"))', want: true },
    { expr: 'quantity("50M").isGreaterThan(quantity("100M"))', want: false },
    { expr: 'quantity("200M").compareTo(quantity("0.2G"))', want: 0n },
    { expr: 'quantity("50M").compareTo(quantity("50Mi"))', want: -1n },
    { expr: 'quantity("50Mi").compareTo(quantity("50M"))', want: 1n },
    { expr: 'quantity("50k").add(quantity("20")) == quantity("50.02k")', want: true },
    { expr: 'quantity("50k").add(20).isLessThan(quantity("50020"))', want: false },
    { expr: 'quantity("50k").sub(quantity("20")) == quantity("49.98k")', want: true },
    { expr: 'quantity("50k").sub(20) == quantity("49980")', want: true },
    { expr: 'quantity("50k").add(20).sub(quantity("100k")).asInteger()', want: -49980n },
    { expr: 'quantity("50k").add(20).sub(quantity("100k")).sub(-50000).asInteger()', want: 20n },
    { expr: 'quantity("50k").asInteger()', want: 50000n },
    {
      expr: 'quantity("9999999999999999999999999999999999999G").asInteger()',
      error: 'cannot convert value to integer',
    },
    { expr: 'quantity("9999999999999999999999999999999999999G").isInteger()', want: false },
    { expr: 'quantity("50").isInteger()', want: true },
    { expr: 'quantity("50.703k").asApproximateFloat()', want: 50703 },
    // The grammar: signs, fractions, exponents, binary and decimal suffixes.
    { expr: 'quantity("1.5Gi") == quantity("1536Mi")', want: true },
    { expr: 'quantity("+1k") == quantity("1000")', want: true },
    { expr: 'quantity("-1.5") == quantity("-1500m")', want: true },
    { expr: 'quantity("1E3") == quantity("1k")', want: true },
    { expr: 'quantity("1e-3") == quantity("1m")', want: true },
    { expr: 'quantity("12e+1") == quantity("120")', want: true },
    { expr: 'quantity("1E") == quantity("1000P")', want: true },
    { expr: 'quantity(".5") == quantity("500m")', want: true },
    { expr: 'quantity("1.") == quantity("1")', want: true },
    // Go's scanner reads a lone sign, "." and a bare suffix as zero.
    {
      expr: 'quantity("-") == quantity("0") && quantity(".") == quantity("0") && quantity("Mi") == quantity("0")',
      want: true,
    },
    // Below a nano, values round up (away from zero) to 1n.
    { expr: 'quantity("0.1n") == quantity("1n")', want: true },
    { expr: 'quantity("-0.1n") == quantity("-1n")', want: true },
    { expr: 'quantity("1e-2000000000") == quantity("1n")', want: true },
    // Binary quantities are capped at the largest int64.
    { expr: 'quantity("9Ei") == quantity("9223372036854775807")', want: true },
    { expr: 'quantity("9e18") == quantity("9Ei")', want: false },
    // The int form vs kube's exact decimal form: asInteger only reads the former.
    { expr: 'quantity("1000m").isInteger()', want: false },
    { expr: 'quantity("1000m").asApproximateFloat()', want: 1 },
    { expr: 'quantity("1e3").asInteger()', want: 1000n },
    { expr: 'quantity("922337203685477580").isInteger()', want: true },
    { expr: 'quantity("9223372036854775807").isInteger()', want: false },
    { expr: 'quantity("1.5Gi").isInteger()', want: false },
    { expr: 'quantity("1.5Gi").asApproximateFloat()', want: 1610612736000000000 * 1e-9 },
    { expr: 'quantity("1e19").isInteger()', want: false },
    { expr: 'quantity("1e400").asApproximateFloat() > 1.7e308', want: true },
    { expr: 'quantity("1n").asApproximateFloat()', want: 1e-9 },
    { expr: 'quantity("900000000000000000").add(quantity("9e18")).isInteger()', want: false },
    { expr: 'quantity("900000000000000000").add(quantity("9e18")) == quantity("9.9e18")', want: true },
    // float64(1001) * math.Pow10(-3), as kube computes it: not the double nearest 1.001.
    { expr: 'quantity("1").add(quantity("1m")).asApproximateFloat()', want: 1.0010000000000001 },
    { expr: 'quantity("1.5Gi").sub(quantity("1.5Gi")).asApproximateFloat()', want: 0 },
    { expr: 'quantity("1").sub(quantity("1")).isInteger()', want: true },
    // kube subtracts an int64 by adding its negation, which wraps for the most negative one.
    { expr: 'quantity("0").sub(-9223372036854775807 - 1).asInteger() == -9223372036854775807 - 1', want: true },
    { expr: 'quantity("1e2000000000").compareTo(quantity("1"))', want: 1n },
    { expr: 'quantity("-1e2000000000").isLessThan(quantity("-1"))', want: true },
    // sign is a global function in kube, not a method.
    { expr: 'sign(quantity("-1"))', want: -1n },
    { expr: 'sign(quantity("0"))', want: 0n },
    { expr: 'sign(quantity("1m"))', want: 1n },
    { expr: 'sign(quantity("-1.5Gi"))', want: -1n },
    { expr: 'quantity("1").sign()', checkError: 'found no matching overload' },
    // Quantities in collections compare as quantities.
    { expr: "[quantity('1'), quantity('2k')].exists(q, q == quantity('2000'))", want: true },
    { expr: "quantity('1k') in [quantity('1000')]", want: true },
    // Errors.
    { expr: 'quantity("")', error: FORMAT_WRONG },
    { expr: 'quantity("Three")', error: FORMAT_WRONG },
    { expr: 'quantity("1.1.M")', error: FORMAT_WRONG },
    { expr: 'quantity(" 1")', error: FORMAT_WRONG },
    { expr: 'quantity("1 ")', error: FORMAT_WRONG },
    { expr: 'quantity("200K")', error: SUFFIX },
    { expr: 'quantity("0.1mi")', error: SUFFIX },
    { expr: 'quantity("1e")', error: SUFFIX },
    { expr: 'quantity("-3.01e-")', error: SUFFIX },
    { expr: 'quantity("1e99999999999999999999")', error: SUFFIX },
    { expr: 'quantity("+.e-10")', error: 'unable to parse numeric part of quantity' },
    { expr: 'isQuantity("1,3G")', want: false },
    { expr: 'isQuantity("10000k")', want: true },
    { expr: 'isQuantity("1.3Gi")', want: true },
    { expr: 'quantity("1.3G").add("1")', checkError: 'found no matching overload' },
  ];
  runCelCases([quantityLibrary], cases);
});
