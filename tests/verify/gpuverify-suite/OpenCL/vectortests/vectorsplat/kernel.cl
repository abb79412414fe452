//pass
//--local_size=64 --num_groups=64



__kernel void foo() {
	float4 inRand = 1.0f;
	char3 a = 15;
	uchar4 v = (uchar4)(0);
}


