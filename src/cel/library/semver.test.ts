import { describe } from 'node:test';
import { semverLibrary } from './semver.js';
import { type CelCase, runCelCases } from './testing/cel-cases.js';

describe('kubernetes.Semver', () => {
  const cases: CelCase[] = [
    // kube's own table (semver_test.go).
    { expr: 'semver("1.2.3") == semver("1.2.3")', want: true },
    { expr: 'semver("v1.0")', error: 'No Major.Minor.Patch elements found' },
    { expr: 'isSemver("1.2.3-beta.1+build.1")', want: true },
    { expr: 'isSemver("v1.0")', want: false },
    { expr: 'isSemver([1, 2, 3])', checkError: "found no matching overload for 'isSemver" },
    { expr: 'semver("1.2.3") == semver("1.0.0")', want: false },
    { expr: 'semver("1.0.0").isLessThan(semver("1.2.3"))', want: true },
    { expr: 'semver("1.0.0").isLessThan(semver("1.0.0"))', want: false },
    { expr: 'semver("1.2.3").isGreaterThan(semver("1.0.0"))', want: true },
    { expr: 'semver("1.0.0").isGreaterThan(semver("1.0.0"))', want: false },
    { expr: 'semver("1.2.3").compareTo(semver("1.2.3"))', want: 0n },
    { expr: 'semver("1.0.0").compareTo(semver("1.2.3"))', want: -1n },
    { expr: 'semver("1.2.3").compareTo(semver("1.0.0"))', want: 1n },
    { expr: 'semver("1.2.3").major()', want: 1n },
    { expr: 'semver("1.2.3").minor()', want: 2n },
    { expr: 'semver("1.2.3").patch()', want: 3n },
    // Precedence (SemVer 2.0): pre-releases sort before the release, numerics before words.
    { expr: 'semver("1.0.0-alpha").isLessThan(semver("1.0.0"))', want: true },
    { expr: 'semver("1.0.0-alpha").isLessThan(semver("1.0.0-alpha.1"))', want: true },
    { expr: 'semver("1.0.0-alpha.1").isLessThan(semver("1.0.0-alpha.beta"))', want: true },
    { expr: 'semver("1.0.0-beta.2").isLessThan(semver("1.0.0-beta.11"))', want: true },
    { expr: 'semver("1.0.0-rc.1").compareTo(semver("1.0.0-beta.11"))', want: 1n },
    { expr: 'semver("1.0.0+build.1") == semver("1.0.0+build.2")', want: true },
    { expr: 'semver("10.0.0").isGreaterThan(semver("9.99.99"))', want: true },
    // uint64 parts read as CEL ints, as kube converts them.
    { expr: 'semver("18446744073709551615.0.0").major()', want: -1n },
    // blang/semver's messages.
    { expr: 'semver("")', error: 'Version string empty' },
    { expr: 'semver("1.2")', error: 'No Major.Minor.Patch elements found' },
    { expr: 'semver("a.2.3")', error: 'Invalid character(s) found in major number "a"' },
    { expr: 'semver("01.2.3")', error: 'Major number must not contain leading zeroes "01"' },
    { expr: 'semver("1.02.3")', error: 'Minor number must not contain leading zeroes "02"' },
    { expr: 'semver("1.2.03")', error: 'Patch number must not contain leading zeroes "03"' },
    { expr: 'semver("1.x.3")', error: 'Invalid character(s) found in minor number "x"' },
    { expr: 'semver("1.2.3.4")', error: 'Invalid character(s) found in patch number "3.4"' },
    { expr: 'semver(".2.3")', error: 'strconv.ParseUint: parsing "": invalid syntax' },
    {
      expr: 'semver("18446744073709551616.0.0")',
      error: 'strconv.ParseUint: parsing "18446744073709551616": value out of range',
    },
    { expr: 'semver("1.2.3-")', error: 'Prerelease is empty' },
    { expr: 'semver("1.2.3-01")', error: 'Numeric PreRelease version must not contain leading zeroes "01"' },
    { expr: 'semver("1.2.3-a_b")', error: 'Invalid character(s) found in prerelease "a_b"' },
    { expr: 'semver("1.2.3+")', error: 'Build meta data is empty' },
    { expr: 'semver("1.2.3+a_b")', error: 'Invalid character(s) found in build meta data "a_b"' },
    { expr: 'isSemver("1.2.3-0.alpha+001")', want: true },
  ];
  runCelCases([semverLibrary], cases);
});
